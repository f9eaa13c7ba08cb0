"""What reaches a player's WebSocket besides the table: quick match updates (wherever the socket
is, on whichever process), rematch offers, and table talk (limited, and muted on request)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bidak.server.shared.clocks import ManualClock
from tests.server import backends
from tests.server.harness import Client, friend_room, running_server, server_settings
from tests.server.scripted import Script, drive, play_all
from tests.server.test_multi_instance import two_instances

pytestmark = pytest.mark.anyio
postgres_url = backends.postgres_url
redis_url = backends.redis_url


def origin(client: Client) -> dict[str, str]:
    return {"Origin": client.running.base}


async def typed(client: Client, kind: str, **match: Any) -> dict[str, Any]:
    return await client.until(
        lambda m: m["type"] == kind and all(m.get(k) == v for k, v in match.items())
    )


async def test_quick_match_updates_reach_a_socket_that_joined_no_room(tmp_path: Path) -> None:
    async with (
        running_server(server_settings(tmp_path)) as running,
        Client(running) as a,
        Client(running) as b,
    ):
        await a.connect()
        await b.connect()
        options = {"length": 3, "move_seconds": 45, "cube": True}
        await a.http.post("/api/quick", json=options, headers=origin(a))
        assert (await typed(a, "quick"))["state"] == "waiting"
        await b.http.post("/api/quick", json=options, headers=origin(b))
        paired = [await typed(c, "quick", state="paired") for c in (a, b)]
        assert paired[0]["room"] == paired[1]["room"]


async def test_two_players_on_two_processes_are_paired(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    async with (
        two_instances(tmp_path, postgres_url, redis_url) as (first, second),
        Client(first) as a,
        Client(second) as b,
    ):
        await a.connect()
        await b.connect()
        options = {"length": 1, "move_seconds": 30, "cube": False}
        await a.http.post("/api/quick", json=options, headers=origin(a))
        await b.http.post("/api/quick", json=options, headers=origin(b))
        rooms = {(await typed(c, "quick", state="paired"))["room"] for c in (a, b)}
        assert len(rooms) == 1
        (code,) = rooms
        # Each plays on its own process; the match is one.
        for client in (a, b):
            client.table, client.version = None, 0
        await a.join(code)
        await b.join(code)
        room = (await a.http.get(f"/api/rooms/{code}")).json()
        seats = [room["seat"], (await b.http.get(f"/api/rooms/{code}")).json()["seat"]]
        finals = await play_all(drive(a, Script(1), seats[0]), drive(b, Script(2), seats[1]))
        assert finals[0]["phase"] == finals[1]["phase"] == "match_over"


async def test_table_talk_is_limited_and_muted_on_request(tmp_path: Path) -> None:
    clock = ManualClock()
    async with (
        running_server(server_settings(tmp_path), clock) as running,
        Client(running) as alice,
        Client(running) as bob,
        Client(running) as watcher,
    ):
        room, _ = await friend_room(alice, bob)
        for client in (alice, bob, watcher):
            await client.join(room["code"])
        await alice.send({"type": "talk", "phrase": "good_luck"})
        for client in (bob, watcher, alice):
            heard = await typed(client, "talk")
            assert heard == {"type": "talk", "seat": 0, "phrase": "good_luck"}
        await alice.send({"type": "talk", "phrase": "oops"})
        assert (await typed(alice, "error"))["code"] == "rate_limited"
        await watcher.send({"type": "talk", "phrase": "hello"})
        assert (await typed(watcher, "error"))["code"] == "not_seated"
        await alice.send({"type": "talk", "phrase": "<script>"})
        assert (await typed(alice, "error"))["code"] == "bad_message"

        muted = await bob.http.post(
            f"/api/rooms/{room['code']}/mute", json={"seat": 0}, headers=origin(bob)
        )
        assert muted.status_code == 200
        await bob.join(room["code"])  # the mute holds from the next join on
        await clock.advance(3)
        await alice.send({"type": "talk", "phrase": "thanks"})
        assert (await typed(watcher, "talk"))["phrase"] == "thanks"
        await bob.send({"type": "talk", "phrase": "hello"})  # Bob's own phrase reaches him
        assert (await typed(bob, "talk"))["phrase"] == "hello"
        assert not any(m["type"] == "talk" and m["phrase"] == "thanks" for m in bob.messages), (
            "a muted player's phrase reached the player who muted them"
        )


async def test_rematch_offers_reach_both_players(tmp_path: Path) -> None:
    async with (
        running_server(server_settings(tmp_path)) as running,
        Client(running) as alice,
        Client(running) as bob,
    ):
        room, _ = await friend_room(alice, bob, length=1)
        await alice.join(room["code"])
        await bob.join(room["code"])
        await play_all(drive(alice, Script(3), 0), drive(bob, Script(4), 1))
        await alice.http.post(f"/api/rooms/{room['code']}/rematch", headers=origin(alice))
        offer = await typed(bob, "rematch", state="offered")
        assert offer["by"] == 0 and offer["until"] > 0
        accepted, told = await asyncio.gather(
            bob.http.post(f"/api/rooms/{room['code']}/rematch", headers=origin(bob)),
            typed(alice, "rematch", state="accepted"),
        )
        assert told["room"] == accepted.json()["room"]
        assert (await typed(bob, "rematch", state="accepted"))["room"] == told["room"]
