"""What the tournaments' routes use of the running server: the shared machinery and the
tournaments."""

from __future__ import annotations

from typing import Annotated, Protocol

from fastapi import Depends, Request

from bidak.server.shared.deps import SharedServices
from bidak.server.tournaments.service import Tournaments


class TournamentServices(SharedServices, Protocol):
    @property
    def tournaments(self) -> Tournaments: ...


async def services_of(request: Request) -> TournamentServices:
    services: TournamentServices = request.app.state.services
    return services


TournamentDep = Annotated[TournamentServices, Depends(services_of)]
