"""A block keeps two players apart at the table and in the queue (issue 38, part 3), on SQLite
and PostgreSQL: table talk between them is not passed on (either way), and quick match never
pairs them, while both still meet others."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bidak.server.shared.clocks import ManualClock
from tests.server.backends import database_url, postgres_url
from tests.server.harness import Client, running_server, server_settings

__all__ = ["database_url", "postgres_url"]
pytestmark = pytest.mark.anyio

QUICK = {"length": 3, "move_seconds": 45, "cube": True}


async def me(client: Client) -> str:
    found: str = (await client.http.get("/api/me")).json()["id"]
    return found


async def typed(client: Client, kind: str) -> dict[str, Any]:
    return await client.until(lambda m: m["type"] == kind)


async def test_a_blocked_player_is_not_heard_at_the_table(
    database_url: str, tmp_path: Path
) -> None:
    clock = ManualClock()
    settings = server_settings(tmp_path, database_url=database_url)
    async with running_server(settings, clock) as running:
        async with Client(running) as alice, Client(running) as bob:
            made = await alice.http.post(
                "/api/challenges", json={"to": await me(bob), "length": 3, "move_seconds": 90}
            )
            code = (await bob.http.post(f"/api/challenges/{made.json()['id']}/accept")).json()
            for client in (alice, bob):
                await client.join(code["room"])
            await alice.send({"type": "talk", "phrase": "hello"})
            assert (await typed(bob, "talk"))["phrase"] == "hello"  # heard before the block

            assert (await bob.http.put(f"/api/blocks/{await me(alice)}")).status_code == 200
            for client in (alice, bob):
                await client.join(code["room"])  # a block holds from the next join on
            await clock.advance(3)
            await alice.send({"type": "talk", "phrase": "good_luck"})
            assert (await typed(alice, "talk"))["phrase"] == "good_luck"  # her own comes back
            await bob.send({"type": "talk", "phrase": "thanks"})
            assert (await typed(bob, "talk"))["phrase"] == "thanks"
            assert not any(m.get("phrase") == "good_luck" for m in bob.messages), (
                "the blocked player's phrase reached the player who blocked them"
            )
            await alice.send({"type": "ping"})
            await typed(alice, "pong")
            assert not any(m.get("phrase") == "thanks" for m in alice.messages), (
                "the blocker's phrase reached the player they blocked"
            )


async def test_quick_match_never_pairs_a_blocked_pair(database_url: str, tmp_path: Path) -> None:
    settings = server_settings(tmp_path, database_url=database_url)
    clock = ManualClock()
    async with running_server(settings, clock) as running:
        async with Client(running) as alice, Client(running) as bob, Client(running) as carol:
            await alice.http.put(f"/api/blocks/{await me(bob)}")
            assert (await alice.http.post("/api/quick", json=QUICK)).json()["waiting"] is True
            await clock.advance(1)  # Alice has waited longest
            assert (await bob.http.post("/api/quick", json=QUICK)).json()["waiting"] is True
            await running.services.quick.pair_now()
            assert (await alice.http.get("/api/quick")).json()["waiting"] is True
            assert (await bob.http.get("/api/quick")).json()["waiting"] is True
            # Carol, whom nobody blocked, is paired with the one who waited longest.
            paired = await carol.http.post("/api/quick", json=QUICK)
            assert paired.json()["waiting"] is False and paired.json()["room"]
            room = await running.services.store.room(paired.json()["room"])
            assert room is not None
            assert {room.seat0_id, room.seat1_id} == {await me(alice), await me(carol)}
            assert (await bob.http.get("/api/quick")).json()["waiting"] is True
