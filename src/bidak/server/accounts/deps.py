"""Who is asking: the visitor's player from the session cookie (a new guest if none), and what
the accounts' routes use of the running server."""

from __future__ import annotations

from typing import Annotated, Protocol

from fastapi import Depends, Request, Response

from bidak.server.accounts.devices import device_label
from bidak.server.accounts.guests import COOKIE
from bidak.server.accounts.player_queries import Players
from bidak.server.accounts.service import Accounts
from bidak.server.shared.deps import SharedServices, too_soon
from bidak.server.shared.security import UNSAFE, mark_personal
from bidak.server.shared.store.models import PlayerRow

SESSION_MAX_AGE = 400 * 24 * 3600
SEEN_EVERY = 300.0
"""A session's "last seen" is written at most this often (not on every request)."""


class AccountServices(SharedServices, Protocol):
    """What the accounts use of the running server: the shared machinery, the players' and
    sessions' queries and the accounts' use cases."""

    @property
    def store(self) -> Players: ...
    @property
    def accounts(self) -> Accounts: ...


async def account_services(request: Request) -> AccountServices:
    services: AccountServices = request.app.state.services
    return services


AccountsDep = Annotated[AccountServices, Depends(account_services)]


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


async def current_player(request: Request, response: Response, services: AccountsDep) -> PlayerRow:
    """The visitor's player: resumed from the session cookie, or a new guest with a new cookie.
    Every answer that asked is about that player, so it is marked ``Cache-Control: no-store``
    (:func:`bidak.server.shared.security.mark_personal`)."""
    mark_personal(request.state)
    token = request.cookies.get(COOKIE)
    found = await services.store.session_for_token(token) if token else None
    device = device_label(request.headers.get("user-agent"))
    if found is not None and token is not None:
        session, player = found
        if session.last_seen is None or services.clock.now() - session.last_seen > SEEN_EVERY:
            await services.accounts.seen(token, device)
        if request.method in UNSAFE:  # every change a player makes, on any route, is counted
            limits = services.limits
            too_soon(await limits.wait(limits.changes, player.id, services.clock.now()), "changes")
        return player
    # The address is the proxy's X-Forwarded-For when uvicorn trusts the proxy.
    address = request.client.host if request.client else ""
    limits = services.limits
    too_soon(await limits.wait(limits.guests, address, services.clock.now()), "new players")
    player, token = await services.store.create_guest(device=device)
    # A cookie whose session has ended (signed out from another browser, or its account
    # deleted): the new guest's answer says so, so the page can tell the player.
    request.state.signed_out = bool(request.cookies.get(COOKIE))
    # Behind a TLS-terminating proxy the request's scheme is https when the proxy is trusted
    # (uvicorn's --forwarded-allow-ips) and says so in X-Forwarded-Proto.
    secure = services.settings.secure_cookies or request.url.scheme == "https"
    set_session_cookie(response, token, secure)
    return player


PlayerDep = Annotated[PlayerRow, Depends(current_player)]
