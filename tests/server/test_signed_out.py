"""A WebSocket ends with its session, in every process (issue 23, change 2).

A probe kept playing as a player after signing out: a socket opened before (or with a copied
cookie) still forfeited the owner's tables after "sign out everywhere". Now signing out, signing
every browser out, ending a session from the list, deleting the account and a session replaced at
sign-in close the session's sockets at once, with a close code that says why (4003 signed out,
4002 renewed), on SQLite and PostgreSQL, and over two processes through the Redis bus.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
import websockets
from websockets.typing import Origin

from tests.server import backends
from tests.server.backends import database_url, postgres_url
from tests.server.harness import Client, Running, friend_room, running_server, server_settings
from tests.server.smtp_sink import SmtpSink, link_in, smtp_sink
from tests.server.test_multi_instance import two_instances

__all__ = ["database_url", "postgres_url", "smtp_sink"]
RENEWED, SIGNED_OUT = 4002, 4003
"""The close codes of docs/protocol.md (bidak.server.play.sockets)."""
pytestmark = pytest.mark.anyio
redis_url = backends.redis_url

PROMPTLY = 2.0
"""Seconds a socket has to be closed after the request that ended its session answered (the
close is sent at once; the margin is for a busy test machine)."""


async def closed_with(ws: Any) -> tuple[int | None, str]:
    """The close code and reason of ``ws``, which the server must close within PROMPTLY."""

    async def drained() -> None:
        while True:
            await ws.recv()

    with pytest.raises(websockets.ConnectionClosed) as closed:
        await asyncio.wait_for(drained(), PROMPTLY)
    frame = closed.value.rcvd
    return (frame.code, frame.reason) if frame else (None, "")


async def socket_of(running: Running, cookies: httpx.Cookies) -> Any:
    cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
    return await websockets.connect(
        running.ws_url, additional_headers={"Cookie": cookie}, origin=Origin(running.base)
    )


async def forfeit_refused(running: Running, cookies: httpx.Cookies, room: str) -> None:
    """A socket opened with the old cookie may watch, not act: the forfeit is refused."""
    ws = await socket_of(running, cookies)
    try:
        await ws.send(json.dumps({"type": "join", "room": room}))
        snapshot = json.loads(await ws.recv())
        assert snapshot["type"] == "snapshot" and snapshot["seat"] is None
        await ws.send(json.dumps({"type": "intent", "action": {"type": "forfeit"}}))
        answer = json.loads(await ws.recv())
        assert answer["type"] == "error" and answer["code"] == "not_seated", answer
    finally:
        await ws.close()


async def sign_out(http: httpx.AsyncClient) -> None:
    assert (await http.post("/api/auth/logout")).status_code == 204


async def sign_out_everywhere(http: httpx.AsyncClient) -> None:
    # From another browser holding a copy of the cookie, as the probe did.
    async with httpx.AsyncClient(base_url=http.base_url, headers=http.headers) as copy:
        copy.cookies.update(http.cookies)
        assert (await copy.post("/api/auth/logout-all")).status_code == 204


async def end_from_the_list(http: httpx.AsyncClient) -> None:
    listed = (await http.get("/api/me/sessions")).json()
    (current,) = [s for s in listed if s["current"]]
    assert (await http.delete(f"/api/me/sessions/{current['id']}")).status_code == 204


async def delete_the_account(http: httpx.AsyncClient) -> None:
    answer = await http.request("DELETE", "/api/me", json={"confirm": True})
    assert answer.status_code == 204


ENDINGS: dict[str, Callable[[httpx.AsyncClient], Awaitable[None]]] = {
    "sign-out": sign_out,
    "sign-out-everywhere": sign_out_everywhere,
    "ended-from-the-list": end_from_the_list,
    "account-deleted": delete_the_account,
}


@pytest.mark.parametrize("ending", list(ENDINGS))
async def test_ending_a_session_closes_its_sockets_at_the_table(
    ending: str, database_url: str, tmp_path: Path
) -> None:
    settings = server_settings(tmp_path, database_url=database_url)
    async with (
        running_server(settings) as running,
        Client(running) as alice,
        Client(running) as bob,
    ):
        room, joined = await friend_room(alice, bob)
        await alice.join(room["code"])
        cookies = httpx.Cookies(alice.http.cookies)
        await ENDINGS[ending](alice.http)
        code, reason = await closed_with(alice.ws)
        assert code == SIGNED_OUT and reason.startswith("signed out"), (code, reason)
        await forfeit_refused(running, cookies, room["code"])
        match = await running.services.store.match(joined["match_id"])
        assert match is not None and not match.finished
        # Another player's socket is not touched.
        await bob.join(room["code"])
        await bob.send({"type": "ping"})
        assert (await bob.until(lambda m: m["type"] == "pong"))["type"] == "pong"


async def test_a_session_renewed_at_sign_in_closes_the_sockets_of_the_old_one(
    tmp_path: Path, smtp_sink: SmtpSink
) -> None:
    settings = server_settings(tmp_path, smtp_url=smtp_sink.url)
    async with (
        running_server(settings) as running,
        Client(running) as alice,
        Client(running) as bob,
    ):
        room, _ = await friend_room(alice, bob)
        await alice.join(room["code"])
        old = httpx.Cookies(alice.http.cookies)
        sent = await alice.http.post("/api/me/email", json={"email": "alice@example.com"})
        assert sent.status_code == 202
        link = link_in(await smtp_sink.wait_for("alice@example.com"))
        token = parse_qs(urlsplit(link).query)["token"][0]
        assert (await alice.http.post("/api/auth/email", json={"token": token})).is_success
        code, reason = await closed_with(alice.ws)
        assert code == RENEWED and reason.startswith("renewed"), (code, reason)
        await forfeit_refused(running, old, room["code"])
        alice.ws = None  # the browser reconnects with its new cookie, and is still seated
        assert (await alice.join(room["code"]))["seat"] == 0


async def test_signing_out_on_one_process_closes_the_socket_on_the_other(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    async with two_instances(tmp_path, postgres_url, redis_url) as (a, b):
        async with Client(a) as alice, Client(a) as bob:
            room, _ = await friend_room(alice, bob)
            laptop = Client(b)  # the same account, through the other process
            laptop.http.cookies.update(alice.http.cookies)
            async with laptop:
                await laptop.join(room["code"])
                await alice.join(room["code"])
                cookies = httpx.Cookies(alice.http.cookies)
                await sign_out_everywhere(alice.http)
                for client in (alice, laptop):
                    code, _ = await closed_with(client.ws)
                    assert code == SIGNED_OUT
                await forfeit_refused(b, cookies, room["code"])
