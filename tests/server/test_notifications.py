"""The notification centre (issue 38): a correspondence match tells each player when it is their
turn and when it is over, each news once; the bell's unread count; marking read, one's own only;
a notification stored twice under its key, or eight times at once, is stored once (on SQLite and
PostgreSQL)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bidak.server.shared.clocks import ManualClock
from tests.server.backends import database_url, postgres_url
from tests.server.harness import (
    Client,
    catch_up,
    decides,
    friend_room,
    running_server,
    server_settings,
)
from tests.server.scripted import Script

__all__ = ["database_url", "postgres_url"]
pytestmark = pytest.mark.anyio

HOUR = 3600.0


async def _notes(client: Client) -> dict[str, Any]:
    answer = await client.http.get("/api/notifications")
    assert answer.status_code == 200
    body: dict[str, Any] = answer.json()
    return body


async def test_a_correspondence_match_tells_each_player_their_turns_and_its_end(
    tmp_path: Path,
) -> None:
    clock = ManualClock()
    async with running_server(server_settings(tmp_path), clock) as running:
        async with Client(running) as alice, Client(running) as bob:
            room, _ = await friend_room(alice, bob, length=1, days_per_move=2)
            await alice.join(room["code"])
            await bob.join(room["code"])
            script, turns = Script(11), [0, 0]
            while True:
                await catch_up(alice, bob)
                table = alice.table or {}
                if table["phase"] == "match_over":
                    break
                seat = next(s for c, s in ((alice, 0), (bob, 1)) if decides(c.table or {}, s))
                mover = (alice, bob)[seat]
                await clock.advance(5 * HOUR)
                action = script.choose(mover.table or {})
                assert action is not None
                if action["type"] in ("roll", "double", "take", "drop"):
                    turns[seat] += 1
                before = mover.version
                await mover.act(action)
                await mover.until(lambda m, b=before, c=mover: c.version > b)
            await running.services.rooms.settle()

            seen = [await _notes(alice), await _notes(bob)]
            for seat, notes in enumerate(seen):
                kinds = [n["kind"] for n in notes["notes"]]
                assert kinds[0] == "over" and kinds.count("over") == 1
                total = notes["unread"]  # all unread: one per turn of theirs, and the end
                assert 1 <= total - 1 <= turns[seat] + 1 and len(kinds) == min(total, 50)
                assert {n["room"] for n in notes["notes"]} == {room["code"]}
                assert not any(n["read"] for n in notes["notes"])
                unread = await (alice, bob)[seat].http.get("/api/notifications/unread")
                assert unread.json() == {"unread": total}

            # Bob cannot mark Alice's read; Alice marks one, then all.
            first = seen[0]["notes"][0]["id"]
            answer = await bob.http.post("/api/notifications/read", json={"ids": [first]})
            assert answer.json() == {"unread": seen[1]["unread"]}
            assert (await _notes(alice))["unread"] == seen[0]["unread"]
            answer = await alice.http.post("/api/notifications/read", json={"ids": [first]})
            assert answer.json() == {"unread": seen[0]["unread"] - 1}
            answer = await alice.http.post("/api/notifications/read", json={})
            assert answer.json() == {"unread": 0}
            assert all(n["read"] for n in (await _notes(alice))["notes"])


async def test_a_notification_is_stored_once_under_its_key(
    database_url: str, tmp_path: Path
) -> None:
    settings = server_settings(tmp_path, database_url=database_url)
    async with running_server(settings, ManualClock()) as running:
        async with Client(running) as alice:
            me = (await alice.http.get("/api/me")).json()["id"]
            notes = running.services.notifications
            handed: list[str] = []

            async def channel(told: Any) -> None:
                handed.append(told.key)

            notes.add_channel(channel)
            # At once (on PostgreSQL, transactions that may all try before any commits): one
            # stores it and is handed on; the others store nothing and raise nothing.
            stored = await asyncio.gather(
                *(notes.tell("moderator:1", me, "moderator") for _ in range(8))
            )
            assert stored.count(True) == 1
            assert not await notes.tell("moderator:1", me, "moderator")
            assert handed == ["moderator:1"]
            assert (await _notes(alice))["unread"] == 1
            with pytest.raises(ValueError):
                await notes.tell("x:1", me, "gossip")


async def test_opening_a_table_reads_its_notifications_only(tmp_path: Path) -> None:
    async with running_server(server_settings(tmp_path), ManualClock()) as running:
        async with Client(running) as alice, Client(running) as bob:
            me = (await alice.http.get("/api/me")).json()["id"]
            notes = running.services.notifications
            for key, room in (("a", "ROOMAAAA"), ("b", "ROOMAAAA"), ("c", "ROOMBBBB")):
                assert await notes.tell(f"turn:{key}", me, "turn", room)
            await notes.tell("moderator:x", me, "moderator")
            # Bob opening that table reads nothing of Alice's.
            await bob.http.post("/api/notifications/read", json={"room": "ROOMAAAA"})
            assert (await _notes(alice))["unread"] == 4
            answer = await alice.http.post("/api/notifications/read", json={"room": "ROOMAAAA"})
            assert answer.json() == {"unread": 2}
            left = {n["room"] for n in (await _notes(alice))["notes"] if not n["read"]}
            assert left == {"ROOMBBBB", None}
            too_long = await alice.http.post("/api/notifications/read", json={"room": "R" * 33})
            assert too_long.status_code == 422
