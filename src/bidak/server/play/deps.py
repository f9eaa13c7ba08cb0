"""What playing uses of the running server: the shared machinery, the rooms, the one store of
rooms, matches and players, the open sockets' cap and who is at which table."""

from __future__ import annotations

from typing import Annotated, Protocol

from fastapi import Depends, Request

from bidak.server.play.service import RoomService
from bidak.server.play.storage import Store
from bidak.server.shared.deps import SharedServices
from bidak.server.shared.presence import Presence
from bidak.server.shared.sockets import SocketCap


class PlayServices(SharedServices, Protocol):
    @property
    def store(self) -> Store: ...
    @property
    def rooms(self) -> RoomService: ...
    @property
    def sockets(self) -> SocketCap: ...
    @property
    def presence(self) -> Presence: ...


async def play_services(request: Request) -> PlayServices:
    services: PlayServices = request.app.state.services
    return services


PlayDep = Annotated[PlayServices, Depends(play_services)]
