"""Accounts over HTTP: e-mail links, sign-in, sessions, export and deletion (docs/protocol.md)."""

from __future__ import annotations

import asyncio
from typing import Annotated, Literal

from fastapi import APIRouter, BackgroundTasks, Header, HTTPException, Request, Response
from pydantic import BaseModel, Field

from bidak.server.accounts.deps import AccountsDep, PlayerDep, set_session_cookie
from bidak.server.accounts.devices import device_label
from bidak.server.accounts.guests import COOKIE
from bidak.server.accounts.service import AccountError
from bidak.server.mail import Language, language_of
from bidak.server.matches import mat_text
from bidak.server.play import PlayDep
from bidak.server.shared.deps import site_address, too_soon

router = APIRouter(tags=["accounts"])


class AddressIn(BaseModel):
    email: str = Field(max_length=320)
    lang: Literal["id", "en", "fi"] | None = Field(None, description="the letter's language")


class LanguageIn(BaseModel):
    lang: Literal["id", "en", "fi"] | None = None


class Sent(BaseModel):
    status: Literal["sent"] = "sent"
    delivery: Literal["smtp", "log"] = Field(
        description="log: this development server writes letters to its log instead of sending"
    )


class TokenIn(BaseModel):
    token: str = Field(min_length=20, max_length=300)


class Preview(BaseModel):
    purpose: Literal["link_email", "sign_in", "change_email", "delete_account"]
    state: Literal["ready", "used", "expired"]
    name: str
    address: str = Field(description="the address, partly masked")


class ConfirmOut(BaseModel):
    purpose: Literal["link_email", "sign_in", "change_email", "delete_account"]
    signed_in: str | None = Field(description="the account this browser is signed in to")
    merged: int = Field(0, description="finished matches of this browser's guest that moved")


class SessionOut(BaseModel):
    id: str
    created_at: str
    last_seen: float | None
    device: str = Field(description='the coarse label, in English: "Chrome on Android"')
    browser: str | None = Field(description="the browser's family (Chrome, Safari, ...) or null")
    system: str | None = Field(description="the operating system (Android, iPhone, ...) or null")
    current: bool


class DeleteIn(BaseModel):
    confirm: bool = Field(description="true: a guest without e-mail is deleted at once")
    lang: Literal["id", "en", "fi"] | None = None


def _language(chosen: str | None, request: Request) -> Language:
    return language_of(chosen or request.headers.get("accept-language", "").split(",")[0])


def _client(request: Request) -> str:
    return request.client.host if request.client else ""


def _base(request: Request, services: AccountsDep) -> str:
    return site_address(request, services)


def _refused(error: AccountError) -> HTTPException:
    headers = None
    if error.retry_after is not None:
        headers = {"Retry-After": str(max(1, int(error.retry_after + 0.999)))}
    return HTTPException(error.status, error.message, headers=headers)


def _sent(services: AccountsDep) -> Sent:
    delivery = services.accounts.delivery
    return Sent(delivery="log" if delivery == "log" else "smtp")


def answered(background: BackgroundTasks) -> asyncio.Event:
    """An event set once the answer has been sent (a response's background tasks run then)."""
    sent = asyncio.Event()
    background.add_task(sent.set)
    return sent


@router.post("/api/me/email", status_code=202, response_model=Sent)
async def link_email(
    body: AddressIn,
    request: Request,
    player: PlayerDep,
    services: AccountsDep,
    background: BackgroundTasks,
) -> Sent:
    """Send a one-time link that links this address to your account (or, if the account has an
    address, a link to that one which allows the change). The answer is the same whether or not
    the address is known."""
    try:
        await services.accounts.ask_to_link(
            player,
            body.email,
            _language(body.lang, request),
            _client(request),
            _base(request, services),
            answered(background),
        )
    except AccountError as error:
        raise _refused(error) from None
    return _sent(services)


@router.delete("/api/me/email", status_code=202, response_model=Sent)
async def remove_email(
    request: Request, player: PlayerDep, services: AccountsDep, body: LanguageIn | None = None
) -> Sent:
    """Send a link to your current address; opening it removes the address from the account."""
    try:
        await services.accounts.ask_to_remove(
            player,
            _language(body.lang if body else None, request),
            _client(request),
            _base(request, services),
        )
    except AccountError as error:
        raise _refused(error) from None
    return _sent(services)


@router.post("/api/auth/email-login", status_code=202, response_model=Sent)
async def email_login(
    body: AddressIn, request: Request, services: AccountsDep, background: BackgroundTasks
) -> Sent:
    """Send a sign-in link to the address if an account owns it (the same answer, in the same
    time, if not: the work that depends on the address begins once the answer is sent)."""
    try:
        await services.accounts.ask_to_sign_in(
            body.email,
            _language(body.lang, request),
            _client(request),
            _base(request, services),
            answered(background),
        )
    except AccountError as error:
        raise _refused(error) from None
    return _sent(services)


@router.get("/api/auth/email", response_model=Preview)
async def preview(token: str, services: AccountsDep) -> Preview:
    """What a link would do, without using it (the page asks for one click first)."""
    try:
        return Preview(**await services.accounts.preview(token))
    except AccountError as error:
        raise _refused(error) from None


@router.post("/api/auth/email", response_model=ConfirmOut)
async def confirm(
    body: TokenIn,
    request: Request,
    response: Response,
    services: AccountsDep,
    user_agent: Annotated[str | None, Header()] = None,
) -> ConfirmOut:
    """Use a link in this browser: confirm the address, sign in (a guest's finished matches
    join the account), allow a change, or delete the account."""
    session = request.cookies.get(COOKIE)
    player = await services.store.player_for_token(session) if session else None
    try:
        done = await services.accounts.confirm(
            body.token,
            player,
            session if player is not None else None,
            device_label(user_agent),
            _language(None, request),
            _base(request, services),
        )
    except AccountError as error:
        raise _refused(error) from None
    if done.token is not None:
        secure = services.settings.secure_cookies or request.url.scheme == "https"
        set_session_cookie(response, done.token, secure)
    elif done.player_id is None:
        response.delete_cookie(COOKIE, path="/")
    return ConfirmOut(purpose=done.purpose.value, signed_in=done.player_id, merged=done.merged)


@router.get("/api/me/sessions", response_model=list[SessionOut])
async def sessions(request: Request, player: PlayerDep, services: AccountsDep) -> list[SessionOut]:
    """This account's signed-in browsers, newest first."""
    found = await services.accounts.sessions(player.id, request.cookies.get(COOKIE))
    return [SessionOut(**row) for row in found]


@router.delete("/api/me/sessions/{session_id}", status_code=204, response_class=Response)
async def end_session(session_id: str, player: PlayerDep, services: AccountsDep) -> Response:
    if not await services.accounts.end_session(player.id, session_id):
        raise HTTPException(404, "There is no such session of yours")
    return Response(status_code=204)


@router.post("/api/auth/logout", status_code=204, response_class=Response)
async def logout(request: Request, services: AccountsDep) -> Response:
    """Sign this browser out (its next visit is a new guest)."""
    session = request.cookies.get(COOKIE)
    if session:
        await services.accounts.logout(session)
    response = Response(status_code=204)
    response.delete_cookie(COOKIE, path="/")
    return response


@router.post("/api/auth/logout-all", status_code=204, response_class=Response)
async def logout_all(player: PlayerDep, services: AccountsDep) -> Response:
    """Sign every browser of this account out, this one included."""
    await services.accounts.logout_all(player.id)
    response = Response(status_code=204)
    response.delete_cookie(COOKIE, path="/")
    return response


@router.delete("/api/me", status_code=202, response_model=Sent | None)
async def delete_me(
    body: DeleteIn, request: Request, player: PlayerDep, services: AccountsDep, response: Response
) -> Sent | None:
    """Delete the account: with an e-mail, after the link sent to it (202); a guest without
    one at once (204). Opponents keep their match records, under "deleted player"."""
    try:
        if player.email is not None:
            await services.accounts.ask_to_delete(
                player,
                _language(body.lang, request),
                _client(request),
                _base(request, services),
            )
            return _sent(services)
        if not body.confirm:
            raise HTTPException(422, 'Send {"confirm": true} to delete this guest account')
        await services.accounts.delete_now(player)
    except AccountError as error:
        raise _refused(error) from None
    response.status_code = 204
    response.delete_cookie(COOKIE, path="/")
    return None


@router.get(
    "/api/me/export",
    response_class=Response,
    responses={200: {"content": {"application/zip": {}}}},
)
async def export(player: PlayerDep, services: AccountsDep, play: PlayDep) -> Response:
    """Everything stored about the account (account.json) and each finished match as .mat,
    in one zip; 5 an hour (each reads every match of the account)."""
    limits = services.limits
    too_soon(await limits.wait(limits.exports, player.id, services.clock.now()), "exports")
    mats: dict[str, str] = {}
    for _room, match in await play.store.rooms_of(player.id, limit=100_000):
        if match.finished:
            mats[match.id] = await mat_text(play, match)
    data = await services.accounts.export(player.id, mats)
    return Response(
        data,
        media_type="application/zip",
        headers={"Content-Disposition": 'attachment; filename="bidak-account.zip"'},
    )
