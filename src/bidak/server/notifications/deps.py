"""What the notifications' routes use of the running server: the shared machinery and the
notifications and their Web Push."""

from __future__ import annotations

from typing import Annotated, Protocol

from fastapi import Depends, Request

from bidak.server.notifications.push import Push
from bidak.server.notifications.service import Notifications
from bidak.server.shared.deps import SharedServices


class NotifyServices(SharedServices, Protocol):
    @property
    def notifications(self) -> Notifications: ...


async def notify_services(request: Request) -> NotifyServices:
    services: NotifyServices = request.app.state.services
    return services


NotifyDep = Annotated[NotifyServices, Depends(notify_services)]


class PushServices(SharedServices, Protocol):
    @property
    def push(self) -> Push: ...


async def push_services(request: Request) -> PushServices:
    services: PushServices = request.app.state.services
    return services


PushDep = Annotated[PushServices, Depends(push_services)]
