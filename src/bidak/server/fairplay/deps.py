"""What fair play's routes use of the running server, and who may use the moderators' routes."""

from __future__ import annotations

from typing import Annotated, Protocol

from fastapi import Depends, Request

from bidak.server.accounts import PlayerDep
from bidak.server.fairplay.service import FairPlay
from bidak.server.shared.deps import SharedServices
from bidak.server.shared.doors import Door, admit
from bidak.server.shared.store.models import PlayerRow


class FairPlayServices(SharedServices, Protocol):
    @property
    def fairplay(self) -> FairPlay: ...


async def services_of(request: Request) -> FairPlayServices:
    services: FairPlayServices = request.app.state.services
    return services


FairPlayDep = Annotated[FairPlayServices, Depends(services_of)]


async def moderator(player: PlayerDep) -> PlayerRow:
    """The visitor, if a moderator; anyone else is refused with 403 before the route runs."""
    admit(player, Door.MODERATE)
    return player


ModeratorDep = Annotated[PlayerRow, Depends(moderator)]
"""Every moderators' route takes this: it refuses non-moderators."""
