"""The server's resources, opened in the app's lifespan and reached through dependencies."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request, Response

from bidak.engine.workers import BotPool
from bidak.server.accounts import COOKIE, resume_or_create
from bidak.server.analyst import Analyst
from bidak.server.bus import Bus
from bidak.server.clocks import Clock
from bidak.server.rooms.service import RoomService
from bidak.server.settings import Settings
from bidak.server.store.db import Database
from bidak.server.store.models import PlayerRow
from bidak.server.store.repo import Store

SESSION_MAX_AGE = 400 * 24 * 3600


@dataclass
class Services:
    settings: Settings
    db: Database
    store: Store
    bus: Bus
    clock: Clock
    pool: BotPool
    rooms: RoomService
    hints: Analyst
    reviews: Analyst


def get_services(request: Request) -> Services:
    services: Services = request.app.state.services
    return services


ServicesDep = Annotated[Services, Depends(get_services)]


def set_session_cookie(response: Response, token: str, secure: bool) -> None:
    response.set_cookie(
        COOKIE,
        token,
        max_age=SESSION_MAX_AGE,
        httponly=True,
        samesite="lax",
        secure=secure,
        path="/",
    )


async def current_player(request: Request, response: Response, services: ServicesDep) -> PlayerRow:
    """The visitor's player: resumed from the session cookie, or a new guest with a new cookie."""
    player, token = await resume_or_create(services.store, request.cookies.get(COOKIE))
    if token is not None:
        # Behind a TLS-terminating proxy the request's scheme is https when the proxy is trusted
        # (uvicorn's --forwarded-allow-ips) and says so in X-Forwarded-Proto.
        secure = services.settings.secure_cookies or request.url.scheme == "https"
        set_session_cookie(response, token, secure)
    return player


PlayerDep = Annotated[PlayerRow, Depends(current_player)]
