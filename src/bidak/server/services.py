"""The server's resources, opened in the app's lifespan and reached through dependencies."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, HTTPException, Request, Response

from bidak.engine.workers import BotPool
from bidak.server.accounts import COOKIE, guest_name
from bidak.server.analyst import Analyst
from bidak.server.bus import Bus
from bidak.server.clocks import Clock
from bidak.server.devices import device_label
from bidak.server.identity.service import Accounts
from bidak.server.limiter import Limits
from bidak.server.matchmaking.service import QuickMatch
from bidak.server.rooms.service import RoomService
from bidak.server.settings import Settings
from bidak.server.sockets import SocketCap
from bidak.server.storage import Store
from bidak.server.store.db import Database
from bidak.server.store.models import PlayerRow
from bidak.server.tokens import Signer
from bidak.server.wallet.service import Wallets

SESSION_MAX_AGE = 400 * 24 * 3600
SEEN_EVERY = 300.0
"""A session's "last seen" is written at most this often (not on every request)."""


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
    limits: Limits
    sockets: SocketCap
    wallets: Wallets
    quick: QuickMatch
    accounts: Accounts
    signer: Signer
    """Signs short-lived, purpose-bound tokens with ``BIDAK_SECRET_KEY``."""


def get_services(request: Request) -> Services:
    services: Services = request.app.state.services
    return services


ServicesDep = Annotated[Services, Depends(get_services)]


def too_soon(wait: float, what: str) -> None:
    """Refuse with 429 and a Retry-After when a limit says ``wait`` seconds (0: go ahead)."""
    if wait > 0:
        seconds = max(1, math.ceil(wait))
        raise HTTPException(
            429,
            f"Too many {what} at once; try again in {seconds} s",
            headers={"Retry-After": str(seconds)},
        )


def site_address(request: Request, services: Services) -> str:
    """The address the links the site writes begin with: ``BIDAK_PUBLIC_URL``, or (without it,
    in development) the request's own origin, which the site guard let through only for a
    loopback or listening address, never a host the client made up."""
    public = services.settings.public_url.rstrip("/")
    if public:
        return public
    origin: str | None = request.app.site.expected(request.scope)
    if origin is None:  # the guard refuses such a request before any route runs
        raise HTTPException(400, "Unknown host")
    return origin


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
    token = request.cookies.get(COOKIE)
    found = await services.store.session_for_token(token) if token else None
    device = device_label(request.headers.get("user-agent"))
    if found is not None and token is not None:
        session, player = found
        if session.last_seen is None or services.clock.now() - session.last_seen > SEEN_EVERY:
            await services.accounts.seen(token, device)
        return player
    # The address is the proxy's X-Forwarded-For when uvicorn trusts the proxy.
    address = request.client.host if request.client else ""
    limits = services.limits
    too_soon(await limits.wait(limits.guests, address, services.clock.now()), "new players")
    player, token = await services.store.create_guest(guest_name(), device)
    # Behind a TLS-terminating proxy the request's scheme is https when the proxy is trusted
    # (uvicorn's --forwarded-allow-ips) and says so in X-Forwarded-Proto.
    secure = services.settings.secure_cookies or request.url.scheme == "https"
    set_session_cookie(response, token, secure)
    return player


PlayerDep = Annotated[PlayerRow, Depends(current_player)]
