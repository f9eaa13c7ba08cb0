"""Changes come only from the site's own pages: every state-changing route and the WebSocket
upgrade refuse another site's page (and a request that names no page), and change nothing."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from websockets.typing import Origin

from bidak.server.app import create_app
from bidak.server.shared.clocks import ManualClock
from bidak.server.shared.security import UNSAFE, Refused, SiteCheck
from bidak.server.shared.settings import Settings
from tests.server.harness import Client, Running, friend_room, running_server, server_settings

pytestmark = pytest.mark.anyio

EVIL = "https://evil.example"
VALID_BODIES: dict[tuple[str, str], dict[str, Any]] = {
    ("PATCH", "/api/me"): {"name": "Mallory"},
    ("POST", "/api/rooms"): {"kind": "practice", "length": 1, "level": "beginner"},
}
"""Bodies the routes would accept: a refusal must not be for a bad body. Routes not named here
are sent an empty object (the refusal comes before any route looks at the body)."""


def unsafe_routes() -> list[tuple[str, str, bool]]:
    """Every (method, path, takes a body) of the app that may change something, read from
    the app's own description of its routes (OpenAPI), so a route added later is covered
    without touching this test. Paths no route serves are added: the refusal does not depend
    on a route being there."""
    app = create_app(server_settings(Path("/nonexistent")))
    # A path a signed token in its address authorises (RFC 8058's one-click unsubscribe, which
    # a mail provider posts) reads no session: tests/server/test_notify_mail.py shows it.
    assert app.site.signed == {"/api/notifications/unsubscribe"}
    found = [
        (method.upper(), path, "requestBody" in operation)
        for path, operations in app.openapi()["paths"].items()
        for method, operation in operations.items()
        if method.upper() in UNSAFE and path not in app.site.signed
    ]
    known = {(m, p) for m, p, _ in found}
    assert {("PATCH", "/api/me"), ("POST", "/api/rooms"), ("POST", "/api/rooms/{code}/join")} <= (
        known
    ), known
    unrouted = [("POST", "/"), ("DELETE", "/api/rooms/{code}"), ("PUT", "/api/me/anything")]
    return found + [(m, p, False) for m, p in unrouted]


def database_rows(settings_url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, to tell that nothing changed."""
    path = settings_url.split("///", 1)[1]
    with sqlite3.connect(path) as db:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {t: sorted(db.execute(f'SELECT * FROM "{t}"'), key=repr) for t in tables}


def fill(path: str, values: dict[str, str]) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: values.get(m.group(1), "x"), path)


def foreign_headers(running: Running) -> list[dict[str, str]]:
    """What a request from anywhere but the site's own pages carries."""
    other_port = re.sub(r":(\d+)$", lambda m: f":{int(m.group(1)) + 1}", running.base)
    return [
        {"Origin": EVIL},
        {"Origin": EVIL, "Sec-Fetch-Site": "cross-site"},
        {"Origin": "null"},  # a sandboxed frame, a file:// page
        {"Origin": other_port},  # same site (SameSite=Lax cookies go along), another origin
        {"Origin": running.base.replace("http://", "https://")},
        {"Origin": running.base + ".evil.example"},
        {"Origin": running.base, "Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
        {},  # names no page at all (curl, a script): it must say which site it speaks for
    ]


async def make_rooms(victim: Client, friend: Client) -> dict[str, str]:
    """What a forged request could change: a friend room of ``victim`` (a visitor with a
    session) waiting for a guest, and a friend match between ``victim`` and ``friend`` waiting
    for a move (the clocks are manual: nothing moves on its own). Their codes, as the routes'
    parameters."""
    waiting = await victim.http.post("/api/rooms", json={"kind": "friend", "length": 3})
    assert waiting.status_code == 201
    _, joined = await friend_room(victim, friend)
    assert joined["match_id"]
    return {"code": waiting.json()["code"], "match_id": joined["match_id"]}


async def open_site(
    stack: contextlib.AsyncExitStack, settings: Settings
) -> tuple[Running, Client, dict[str, str]]:
    running = await stack.enter_async_context(running_server(settings, ManualClock()))
    victim = await stack.enter_async_context(Client(running))
    friend = await stack.enter_async_context(Client(running))
    return running, victim, await make_rooms(victim, friend)


async def test_every_state_changing_route_refuses_another_sites_page(tmp_path: Path) -> None:
    settings = server_settings(tmp_path)
    routes = unsafe_routes()
    async with contextlib.AsyncExitStack() as stack:
        running, victim, values = await open_site(stack, settings)
        before = database_rows(settings.database_url)
        cookie = victim.http.cookies
        # The visitor's session, and a first visit: one client each (no answer sets a cookie,
        # as asserted, so neither changes between requests).
        clients = [
            await stack.enter_async_context(httpx.AsyncClient(base_url=running.base, cookies=c))
            for c in (cookie, None)
        ]
        for method, template, takes_body in routes:
            path = fill(template, values)
            body = VALID_BODIES.get((method, template), {}) if takes_body else None
            for headers in foreign_headers(running):
                for http in clients:
                    answer = await http.request(method, path, json=body, headers=headers)
                    assert answer.status_code == 403, (method, path, headers, answer.text)
                    assert answer.json()["detail"].startswith("Refused: a change must come")
                    assert "set-cookie" not in answer.headers, "no guest is made either"
        assert database_rows(settings.database_url) == before, "a refused request changed rows"

        # The site's own pages get through: as a browser sends them, with an Origin or with
        # only Sec-Fetch-Site (an older browser's same-origin POST).
        renamed = await victim.http.patch("/api/me", json={"name": "Budi"})
        assert renamed.status_code == 200 and renamed.json()["name"] == "Budi"
        async with httpx.AsyncClient(base_url=running.base, cookies=cookie) as http:
            made = await http.post(
                "/api/rooms",
                json=VALID_BODIES[("POST", "/api/rooms")],
                headers={"Sec-Fetch-Site": "same-origin"},
            )
            assert made.status_code == 201, made.text


async def test_a_change_needs_a_json_body_where_the_route_takes_one(tmp_path: Path) -> None:
    settings = server_settings(tmp_path)
    with_body = [(m, p) for m, p, takes_body in unsafe_routes() if takes_body]
    assert ("PATCH", "/api/me") in with_body
    app = create_app(server_settings(Path("/nonexistent")))
    required = {
        (method.upper(), path)
        for path, operations in app.openapi()["paths"].items()
        for method, operation in operations.items()
        if operation.get("requestBody", {}).get("required")
    }
    assert ("PATCH", "/api/me") in required
    async with contextlib.AsyncExitStack() as stack:
        _, victim, values = await open_site(stack, settings)
        before = database_rows(settings.database_url)
        for method, template in with_body:
            path = fill(template, values)
            valid = VALID_BODIES.get((method, template), {})
            for content_type in ("text/plain", "application/x-www-form-urlencoded", None):
                # What a page on any site may send without asking first, JSON text inside.
                headers = {"Content-Type": content_type} if content_type else {}
                answer = await victim.http.request(
                    method, path, content=json.dumps(valid).encode(), headers=headers
                )
                assert answer.status_code == 415, (path, content_type, answer.text)
                assert "JSON" in answer.json()["detail"]
            if (method, template) in required:
                empty = await victim.http.request(method, path)
                # A moderator's route refuses anyone else before it reads a body.
                expected = 403 if template.startswith("/api/mod/") else 422
                assert empty.status_code == expected, (path, empty.text)
        assert database_rows(settings.database_url) == before


async def test_a_burst_of_forged_renames_and_rooms_changes_nothing(tmp_path: Path) -> None:
    settings = server_settings(tmp_path)
    async with contextlib.AsyncExitStack() as stack:
        running, victim, _ = await open_site(stack, settings)
        before = database_rows(settings.database_url)
        async with httpx.AsyncClient(
            base_url=running.base, cookies=victim.http.cookies, headers={"Origin": EVIL}
        ) as attacker:
            renames = [attacker.patch("/api/me", json={"name": f"Pwned {n}"}) for n in range(50)]
            rooms = [
                attacker.post("/api/rooms", json=VALID_BODIES[("POST", "/api/rooms")])
                for _ in range(50)
            ]
            answers = await asyncio.gather(*renames, *rooms)
        assert [a.status_code for a in answers] == [403] * 100
        after = database_rows(settings.database_url)
        assert after == before
        assert len(after["rooms"]) == 2 and "Pwned" not in repr(after["players"])
        assert (await victim.http.get("/api/me")).json()["name"] != "Pwned 0"


async def test_the_websocket_upgrade_refuses_another_sites_page(tmp_path: Path) -> None:
    settings = server_settings(tmp_path)
    async with contextlib.AsyncExitStack() as stack:
        running, victim, values = await open_site(stack, settings)
        before = database_rows(settings.database_url)
        for headers in foreign_headers(running):
            extra = {"Cookie": victim.cookie, **{k: v for k, v in headers.items() if k != "Origin"}}
            origin = headers.get("Origin")
            with pytest.raises(websockets.InvalidStatus) as refused:
                async with websockets.connect(
                    running.ws_url,
                    additional_headers=extra,
                    origin=Origin(origin) if origin else None,
                ) as socket:  # pragma: no cover - reached only when the upgrade is accepted
                    await socket.send(json.dumps({"type": "join", "room": values["code"]}))
            response = refused.value.response
            assert response.status_code == 403, headers
            assert b"Refused: a change must come" in response.body
        assert database_rows(settings.database_url) == before

        # The site's own page is let in, and plays.
        snapshot = await victim.join(values["code"])
        assert snapshot["room"] == values["code"] and snapshot["seat"] == 0
        assert database_rows(settings.database_url) == before


async def test_behind_a_proxy_the_public_address_is_the_one_origin(tmp_path: Path) -> None:
    """BIDAK_PUBLIC_URL names the site: its pages get through whatever Host the proxy passes,
    and the server's own address no longer counts."""
    public = "https://bidak.example"
    settings = server_settings(tmp_path, public_url=public + "/")
    async with running_server(settings) as running:
        async with httpx.AsyncClient(base_url=running.base, headers={"Origin": public}) as http:
            assert (await http.get("/api/me")).status_code == 200
            assert (await http.patch("/api/me", json={"name": "Budi"})).status_code == 200
            own = await http.patch(
                "/api/me", json={"name": "Eve"}, headers={"Origin": running.base}
            )
            assert own.status_code == 403 and public in own.json()["detail"]
        async with websockets.connect(running.ws_url, origin=Origin(public)) as socket:
            await socket.send('{"type": "ping"}')
            assert "pong" in await socket.recv()
        with pytest.raises(websockets.InvalidStatus):
            async with websockets.connect(running.ws_url, origin=Origin(running.base)):
                pass  # pragma: no cover


def test_a_public_address_that_is_not_one_stops_the_server_at_start(tmp_path: Path) -> None:
    for bad in ("bidak.example", "ftp://bidak.example", "https://", "https://host:99999"):
        with pytest.raises(ValueError, match="BIDAK_PUBLIC_URL"):
            server_settings(tmp_path, public_url=bad)


def test_the_sites_origin_is_compared_as_browsers_write_it() -> None:
    """Host and Origin name the same site whatever the case or a default port; the scheme
    and any other port are another origin."""

    def scope(scheme: str, host: str, origin: str) -> dict[str, Any]:
        headers = [(b"host", host.encode()), (b"origin", origin.encode())]
        return {"type": "http", "scheme": scheme, "headers": headers}

    check = SiteCheck(hosts=["bidak.example"])  # the address it was told to listen on
    for scheme, host, origin in [
        ("https", "Bidak.Example:443", "https://bidak.example"),
        ("http", "bidak.example", "http://BIDAK.example:80"),
        ("wss", "bidak.example", "https://bidak.example"),  # the upgrade, over TLS
        ("http", "[::1]:8000", "http://[::1]:8000"),
    ]:
        check.check(scope(scheme, host, origin))
    for scheme, host, origin in [
        ("http", "bidak.example", "https://bidak.example"),
        ("https", "bidak.example", "https://bidak.example:8443"),
        ("https", "bidak.example", "https://bidak.example.evil.example"),
        ("https", "bidak.example", "https://evil.example/bidak.example"),
        ("https", "bidak.example/x", "https://bidak.example"),  # not a host: nothing matches
        ("https", "bidak.example", "null"),
    ]:
        with pytest.raises(Refused):
            check.check(scope(scheme, host, origin))
    public = SiteCheck("HTTPS://Bidak.Example/play/")
    public.check(scope("http", "127.0.0.1:8000", "https://bidak.example"))
    with pytest.raises(Refused):
        public.check(scope("http", "127.0.0.1:8000", "http://127.0.0.1:8000"))
