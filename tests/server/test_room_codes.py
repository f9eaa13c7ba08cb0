"""Room codes a friend can be told: 8 letters without look-alikes, typed in any case; rooms made
with the older 22-character codes still open; and guessing is stopped by a limit on unknown
codes per client address, after which that address may look up no room at all."""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest

from bidak.match import RuleSet
from bidak.server.play.room import CODE_ALPHABET, RoomKind
from tests.server.harness import Client, running_server, server_settings

pytestmark = pytest.mark.anyio

FRIEND = {"kind": "friend", "length": 3, "move_seconds": 60}


async def test_a_room_code_is_eight_letters_read_in_any_case(tmp_path: Path) -> None:
    async with running_server(server_settings(tmp_path)) as running, Client(running) as alice:
        made = await alice.http.post("/api/rooms", json=FRIEND)
        code = made.json()["code"]
        assert len(code) == 8 and set(code) <= set(CODE_ALPHABET), code
        assert made.json()["invite_url"].endswith(f"/#/room/{code}")
        async with Client(running) as bob:
            joined = await bob.http.post(f"/api/rooms/{code.lower()}/join")
            assert joined.status_code == 200 and joined.json()["seat"] == 1
            await bob.connect()
            await bob.send({"type": "join", "room": code.lower()})
            snapshot = await bob.until(lambda m: m["type"] == "snapshot")
            assert snapshot["room"] == code


async def test_an_old_long_code_still_opens_its_room(tmp_path: Path) -> None:
    async with running_server(server_settings(tmp_path)) as running, Client(running) as alice:
        me = (await alice.http.get("/api/me")).json()
        old = secrets.token_urlsafe(16)  # how codes were made before
        await running.services.rooms.new_room(
            me["id"], RoomKind.FRIEND, RuleSet(length=3), code=old
        )
        found = await alice.http.get(f"/api/rooms/{old}")
        assert found.status_code == 200 and found.json()["code"] == old
        assert (await alice.http.get(f"/api/rooms/{old.swapcase()}")).status_code == 404


async def test_unknown_codes_are_limited_per_address(tmp_path: Path) -> None:
    settings = server_settings(tmp_path, room_misses_per_minute=3)
    async with running_server(settings) as running, Client(running) as alice:
        code = (await alice.http.post("/api/rooms", json=FRIEND)).json()["code"]
        assert (await alice.http.get(f"/api/rooms/{code}")).status_code == 200
        for guess in ("AAAAAAAA", "BBBBBBBB", "CCCCCCCC"):
            assert (await alice.http.get(f"/api/rooms/{guess}")).status_code == 404
        # The allowance is spent: no lookup answers now, a right code neither.
        refused = await alice.http.get(f"/api/rooms/{code}")
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
        assert (await alice.http.get("/api/rooms/DDDDDDDD")).status_code == 429
        await alice.connect()
        await alice.send({"type": "join", "room": code})
        assert (await alice.until(lambda m: m["type"] == "error"))["code"] == "rate_limited"
