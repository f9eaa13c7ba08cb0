"""What quick match's routes use of the running server: playing's services and the queue."""

from __future__ import annotations

from typing import Annotated, Protocol

from fastapi import Depends, Request

from bidak.server.matchmaking.service import QuickMatch
from bidak.server.play import PlayServices


class QuickServices(PlayServices, Protocol):
    @property
    def quick(self) -> QuickMatch: ...


async def services_of(request: Request) -> QuickServices:
    services: QuickServices = request.app.state.services
    return services


QuickDep = Annotated[QuickServices, Depends(services_of)]
