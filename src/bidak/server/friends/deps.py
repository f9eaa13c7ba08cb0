"""What the friends' routes use of the running server: the shared machinery and the friends."""

from __future__ import annotations

from typing import Annotated, Protocol

from fastapi import Depends, Request

from bidak.server.friends.service import Friends
from bidak.server.shared.deps import SharedServices


class FriendsServices(SharedServices, Protocol):
    @property
    def friends(self) -> Friends: ...


async def friends_services(request: Request) -> FriendsServices:
    services: FriendsServices = request.app.state.services
    return services


FriendsDep = Annotated[FriendsServices, Depends(friends_services)]
