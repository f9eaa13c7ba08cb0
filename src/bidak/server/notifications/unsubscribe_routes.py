"""One-click unsubscribe over HTTP (RFC 8058): the link every notification letter carries.

``POST /api/notifications/unsubscribe?t=TOKEN`` with the body ``List-Unsubscribe=One-Click``
(form-encoded) switches that letter's kind of e-mail off for its player: a mail provider
posts it without cookies or ``Origin``, so it reads no session; the signed token is the whole
authority, and the site guard lets this one path through without its origin and JSON checks
(docs/security.md). ``GET`` of the same address shows what it would stop and a button that
posts it: a mail scanner following links unsubscribes nobody. A bad token is a 400 page.
"""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import parse_qs

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse

from bidak.server.accounts import Players
from bidak.server.notifications import pages
from bidak.server.notifications.deps import NotifyDep
from bidak.server.notifications.mailer import UNSUBSCRIBE_PATH, one_click
from bidak.server.notifications.one_click import MAX_LENGTH, BadToken, Unsubscribe
from bidak.server.shared.deps import too_soon

router = APIRouter(tags=["notifications"])

Token = Annotated[
    str, Query(max_length=MAX_LENGTH, description="the signed token of the letter's link")
]
ONE_CLICK = {"List-Unsubscribe": ["One-Click"]}
"""The body RFC 8058 posts, as form fields."""
NO_STORE = {"Cache-Control": "no-store"}
_HTML: dict[str, Any] = {"content": {"text/html": {}}}


def _answer(page: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(page, status, headers=NO_STORE)


async def _checked(t: str, services: NotifyDep) -> tuple[Unsubscribe, str] | None:
    """What the token unsubscribes from and the player's name; None: not a valid link."""
    try:
        asked = one_click(services.settings).verify(t)
    except BadToken:
        return None
    player = await Players(services.db).player(asked.player_id)
    if player is None:  # signed by this site for a player it never had: a changed secret?
        return None
    return asked, player.name


@router.get(
    UNSUBSCRIBE_PATH,
    response_class=HTMLResponse,
    responses={200: _HTML, 400: _HTML},
)
async def unsubscribe_page(request: Request, t: Token, services: NotifyDep) -> HTMLResponse:
    """A letter's unsubscribe link opened: what it stops, and the button that does it (this
    GET changes nothing)."""
    language = pages.page_language(request.headers.get("accept-language"))
    found = await _checked(t, services)
    if found is None:
        return _answer(pages.bad(language), 400)
    asked, name = found
    return _answer(pages.ask(language, asked.kind, name, f"{UNSUBSCRIBE_PATH}?t={t}"))


@router.post(
    UNSUBSCRIBE_PATH,
    response_class=HTMLResponse,
    responses={200: _HTML, 400: _HTML},
)
async def unsubscribe(request: Request, t: Token, services: NotifyDep) -> HTMLResponse:
    """One-click unsubscribe (RFC 8058): with the body ``List-Unsubscribe=One-Click``, no
    cookie and no sign-in, that letter's kind of e-mail is switched off for its player."""
    limits, now = services.limits, services.clock.now()
    address = request.client.host if request.client else ""
    too_soon(await limits.wait(limits.unsubscribes, address, now), "unsubscribes")
    language = pages.page_language(request.headers.get("accept-language"))
    try:
        body = parse_qs((await request.body()).decode("latin-1"), max_num_fields=4)
    except ValueError:  # more fields than the one-click body has
        body = {}
    if body != ONE_CLICK:
        return _answer(pages.bad(language), 400)
    found = await _checked(t, services)
    if found is None:
        return _answer(pages.bad(language), 400)
    asked, _ = found
    too_soon(await limits.wait(limits.changes, asked.player_id, now), "changes")
    await services.notifications.choose(asked.player_id, asked.kind, "email", False)
    return _answer(pages.done(language, asked.kind))
