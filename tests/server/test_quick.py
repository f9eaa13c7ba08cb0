"""Quick match on SQLite and PostgreSQL: same options only, nobody with themselves or someone
they muted, nobody who left, and a bot offered after a long wait."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from bidak.pairing import OFFER_AFTER
from bidak.server.play import mute_queries
from bidak.server.shared.bus import player_channel
from bidak.server.shared.clocks import ManualClock
from tests.server.backends import database_url, postgres_url, redis_url
from tests.server.harness import Client, link_addresses, running_server, server_settings
from tests.server.scripted import Script, drive, play_all

__all__ = ["database_url", "postgres_url", "redis_url"]
pytestmark = pytest.mark.anyio

FIVE = {"length": 5, "move_seconds": 45, "cube": True}


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Any:
    return server_settings(tmp_path, database_url=database_url)


def origin(client: Client) -> dict[str, str]:
    return {"Origin": client.running.base}


async def queue(client: Client, **options: Any) -> dict[str, Any]:
    answer = await client.http.post("/api/quick", json=options or FIVE, headers=origin(client))
    assert answer.status_code == 200, answer.text
    status: dict[str, Any] = answer.json()
    return status


async def status(client: Client) -> dict[str, Any]:
    found: dict[str, Any] = (await client.http.get("/api/quick")).json()
    return found


async def player_id(client: Client) -> str:
    found: str = (await client.http.get("/api/me")).json()["id"]
    return found


async def paired_room(client: Client) -> str:
    """The room of the "paired" message the client's socket is sent."""
    told = await client.until(lambda m: m["type"] == "quick" and m["state"] == "paired")
    code: str = told["room"]
    return code


async def test_two_players_waiting_get_one_rated_match(settings: Any) -> None:
    async with running_server(settings) as running, Client(running) as a, Client(running) as b:
        first = await queue(a)
        assert first["waiting"] and first["room"] is None
        second = await queue(b)
        assert not second["waiting"] and second["room"]
        assert (await status(a))["room"] == second["room"]
        room = await running.services.store.room(second["room"])
        assert room is not None and room.kind == "quick" and room.rated
        assert {room.seat0_id, room.seat1_id} == {await player_id(a), await player_id(b)}
        info = (await a.http.get(f"/api/rooms/{room.code}")).json()
        assert info["rules"]["length"] == 5 and info["move_seconds"] == 45
        assert info["rules"]["timeout_policy"] == "three_strikes"


async def test_ten_players_are_paired_only_with_the_same_options(settings: Any) -> None:
    others = [
        FIVE,
        FIVE,
        {"length": 3, "move_seconds": 45, "cube": True},
        {"length": 3, "move_seconds": 45, "cube": True},
        {"length": 5, "move_seconds": 90, "cube": True},
        {"length": 5, "move_seconds": 90, "cube": True},
        {"length": 5, "move_seconds": 45, "cube": False},
        {"length": 7, "move_seconds": 30, "cube": True},
        {"length": 1, "move_seconds": 30, "cube": True},
        {"length": 1, "move_seconds": 30, "cube": True},
    ]
    async with running_server(settings) as running:
        clients = [Client(running) for _ in others]
        for client in clients:
            await client.__aenter__()
        try:
            for client, options in zip(clients, others, strict=True):
                await queue(client, **options)
            rooms = [(await status(c))["room"] for c in clients]
            for index in (0, 2, 4, 8):
                assert rooms[index] is not None and rooms[index] == rooms[index + 1]
            assert rooms[6] is None and rooms[7] is None
            assert len({r for r in rooms if r}) == 4
            for client, options, code in zip(clients, others, rooms, strict=True):
                if code is None:
                    assert (await status(client))["options"] == options
                    continue
                info = (await client.http.get(f"/api/rooms/{code}")).json()
                assert info["rules"]["length"] == options["length"]
                assert info["rules"]["cube"] == options["cube"]
                assert info["move_seconds"] == options["move_seconds"]
        finally:
            for client in clients:
                await client.__aexit__(None, None, None)


async def test_a_crowd_pressing_at_once_is_all_paired_at_tables_already_rolling(
    settings: Any,
) -> None:
    async with running_server(settings) as running:
        clients = [Client(running) for _ in range(16)]
        for client in clients:
            await client.__aenter__()
        try:
            await asyncio.gather(*(client.connect() for client in clients))
            await asyncio.gather(*(queue(client) for client in clients))

            rooms = await asyncio.gather(*(paired_room(client) for client in clients))
            assert sorted(rooms.count(code) for code in set(rooms)) == [2] * 8
            for client, code in zip(clients, rooms, strict=True):
                table = (await client.join(code))["table"]
                assert table["phase"] != "opening" and table["turn"] in (0, 1)
        finally:
            for client in clients:
                await client.__aexit__(None, None, None)


async def test_who_left_or_muted_is_not_paired(settings: Any) -> None:
    async with (
        running_server(settings) as running,
        Client(running) as a,
        Client(running) as b,
        Client(running) as c,
    ):
        await queue(a)
        left = await a.http.delete("/api/quick", headers=origin(a))
        assert left.status_code == 204 and not (await status(a))["waiting"]
        assert (await queue(b))["waiting"]
        await running.services.db.write(
            partial(
                mute_queries.mute,
                player_id=await player_id(c),
                muted_id=await player_id(b),
                at=datetime.now(UTC),
            )
        )
        assert (await queue(c))["waiting"]
        assert (await status(b))["waiting"] and (await status(b))["room"] is None
        # Nobody is paired with themselves either, however often they press the button.
        assert (await queue(c))["waiting"]


async def test_a_long_wait_brings_the_offer_of_a_bot(settings: Any) -> None:
    clock = ManualClock()
    async with running_server(settings, clock) as running, Client(running) as a:
        updates = await running.services.bus.subscribe(player_channel(await player_id(a)))
        stream = aiter(updates)
        try:
            await queue(a)
            waiting = await asyncio.wait_for(anext(stream), 5)
            assert waiting["state"] == "waiting"
            await clock.advance(OFFER_AFTER - 1)
            await running.services.quick.pair_now()
            assert not (await status(a))["offered"]
            await clock.advance(2)
            await running.services.quick.pair_now()
            offer = await asyncio.wait_for(anext(stream), 5)
            assert offer == {
                "type": "quick",
                "state": "offer",
                "level": "beginner",
            }  # 1500: nearest
            now = await status(a)
            assert now["waiting"] and now["offered"]  # still in the queue until they accept
            await running.services.quick.pair_now()  # offered once only
            await queue(a)  # pressing again keeps the wait (and the offer made)
            again = await asyncio.wait_for(anext(stream), 5)
            assert again["state"] == "waiting" and again["since"] == waiting["since"]
        finally:
            await updates.close()


async def test_a_quick_match_played_to_the_end_is_rated(tmp_path: Path) -> None:
    async with (
        running_server(server_settings(tmp_path)) as running,
        Client(running) as a,
        Client(running) as b,
    ):
        await queue(a, length=1, move_seconds=90, cube=True)
        code = (await queue(b, length=1, move_seconds=90, cube=True))["room"]
        room = await running.services.store.room(code)
        assert room is not None
        seat_of = {room.seat0_id: 0, room.seat1_id: 1}
        seats = [seat_of[await player_id(c)] for c in (a, b)]
        await link_addresses(running, *[p for p in (room.seat0_id, room.seat1_id) if p])
        await a.join(code)
        await b.join(code)
        await play_all(drive(a, Script(1), seats[0]), drive(b, Script(2), seats[1]))
        rating = (await a.http.get(f"/api/matches/{room.match_id}/rating")).json()
        assert rating["rated"] and sorted(p["change"] for p in rating["players"]) == [-10, 10]
        assert (await status(a))["room"] is None


async def test_muting_at_a_table_keeps_that_player_out_of_quick_matches(tmp_path: Path) -> None:
    from tests.server.harness import friend_room

    async with (
        running_server(server_settings(tmp_path)) as running,
        Client(running) as a,
        Client(running) as b,
    ):
        room, _ = await friend_room(a, b)
        muted = await a.http.post(
            f"/api/rooms/{room['code']}/mute", json={"seat": 1}, headers=origin(a)
        )
        assert muted.json() == {"seat": 1, "muted": True}
        self_mute = await a.http.post(
            f"/api/rooms/{room['code']}/mute", json={"seat": 0}, headers=origin(a)
        )
        assert self_mute.status_code == 409
        await queue(a)
        assert (await queue(b))["waiting"]  # never paired with someone who muted them
        await a.http.post(
            f"/api/rooms/{room['code']}/mute", json={"seat": 1, "muted": False}, headers=origin(a)
        )
        await running.services.quick.pair_now()
        assert (await status(a))["room"] is not None


async def test_a_crowd_pressing_at_once_on_two_processes_is_paired_once_each(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    """Half of a crowd presses on one process, half on the other, all at once: both processes
    run pairing passes over one queue, and each player gets exactly one table, with a player
    who pressed on either process (the passes take turns under the queue's lock)."""
    from tests.server.test_multi_instance import two_instances

    async with two_instances(tmp_path, postgres_url, redis_url) as (a, b):
        clients = [Client(a if n % 2 else b) for n in range(24)]
        for client in clients:
            await client.__aenter__()
        try:
            await asyncio.gather(*(client.connect() for client in clients))
            ids = await asyncio.gather(*(player_id(client) for client in clients))
            await asyncio.gather(*(queue(client) for client in clients))

            rooms = await asyncio.gather(*(paired_room(client) for client in clients))
            assert sorted(rooms.count(code) for code in set(rooms)) == [2] * 12
            for client, me, code in zip(clients, ids, rooms, strict=True):
                info = (await client.http.get(f"/api/rooms/{code}")).json()
                assert me in {seat["id"] for seat in info["seats"]}
            statuses = await asyncio.gather(*(status(client) for client in clients))
            assert [s["waiting"] for s in statuses] == [False] * 24
            assert sorted(s["room"] for s in statuses) == sorted(rooms)
        finally:
            for client in clients:
                await client.__aexit__(None, None, None)
