"""Rated matches on SQLite and PostgreSQL: the end of a rated match moves both ratings once, in
the transaction that stores it; unrated and practice matches move nothing."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from bidak.ratings import START_RATING
from bidak.server.play.rated_queries import RatedEnd, rate
from tests.server.backends import database_url, postgres_url
from tests.server.harness import (
    Client,
    Running,
    friend_room,
    link_addresses,
    running_server,
    server_settings,
)
from tests.server.scripted import Script, drive, play_all

__all__ = ["database_url", "postgres_url"]
pytestmark = pytest.mark.anyio


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Any:
    return server_settings(tmp_path, database_url=database_url)


async def ids(*clients: Client) -> list[str]:
    return [(await c.http.get("/api/me")).json()["id"] for c in clients]


async def linked_ids(running: Running, *clients: Client) -> list[str]:
    """The players' ids, each with a linked address (rated play needs one)."""
    found = await ids(*clients)
    await link_addresses(running, *found)
    return found


async def play_out(alice: Client, bob: Client, **options: Any) -> dict[str, Any]:
    room, _ = await friend_room(alice, bob, length=1, **options)
    await alice.join(room["code"])
    await bob.join(room["code"])
    finals = await play_all(drive(alice, Script(5), 0), drive(bob, Script(6), 1))
    assert finals[0]["phase"] == "match_over"
    fresh = (await alice.http.get(f"/api/rooms/{room['code']}")).json()
    return {"room": room, "match_id": fresh["match_id"], "winner": finals[0]["winner"]}


async def ratings(running: Running, players: list[str]) -> list[tuple[float, int]]:
    rows = await running.services.store.players(players)
    return [(rows[p].rating, rows[p].experience) for p in players]


async def test_a_rated_match_moves_both_ratings_and_says_how(settings: Any) -> None:
    async with (
        running_server(settings) as running,
        Client(running) as alice,
        Client(running) as bob,
    ):
        players = await linked_ids(running, alice, bob)
        assert await ratings(running, players) == [(START_RATING, 0)] * 2
        done = await play_out(alice, bob, rated=True)
        answer = (await bob.http.get(f"/api/matches/{done['match_id']}/rating")).json()
        assert answer["rated"] is True
        lines = {line["seat"]: line for line in answer["players"]}
        winner, loser = lines[done["winner"]], lines[1 - done["winner"]]
        # Two new players, equal ratings, one point: +10 and -10 (5x the experienced 2).
        assert (winner["before"], winner["change"], winner["after"]) == (1500, 10, 1510)
        assert (loser["before"], loser["change"], loser["after"]) == (1500, -10, 1490)
        after = await ratings(running, players)
        assert sorted(after) == [(1490.0, 1), (1510.0, 1)]


async def test_unrated_and_practice_matches_move_nothing(settings: Any) -> None:
    async with (
        running_server(settings) as running,
        Client(running) as alice,
        Client(running) as bob,
    ):
        players = await ids(alice, bob)
        done = await play_out(alice, bob)
        answer = (await alice.http.get(f"/api/matches/{done['match_id']}/rating")).json()
        assert answer == {
            "match_id": done["match_id"],
            "rated": False,
            "players": [],
            "unrated": None,
        }
        practice = await alice.http.post(
            "/api/rooms", json={"kind": "practice", "length": 1, "level": "beginner"}
        )
        await alice.join(practice.json()["code"])
        await drive(alice, Script(3), 0)
        assert await ratings(running, players) == [(START_RATING, 0)] * 2


async def test_a_forfeit_is_a_rated_loss(settings: Any) -> None:
    async with (
        running_server(settings) as running,
        Client(running) as alice,
        Client(running) as bob,
    ):
        players = await linked_ids(running, alice, bob)
        room, _ = await friend_room(alice, bob, length=3, rated=True)
        await alice.join(room["code"])
        await bob.join(room["code"])
        await alice.act({"type": "forfeit"})
        await bob.until(lambda m: m.get("table", {}) and m["table"]["phase"] == "match_over")
        # Equal new players, 3 points: 5 x 4 x sqrt(3) x 1/2 each way; Alice lost.
        stake = 5 * 4 * 3**0.5 / 2
        (alice_rating, alice_xp), (bob_rating, bob_xp) = await ratings(running, players)
        assert (alice_rating, bob_rating) == pytest.approx((1500 - stake, 1500 + stake))
        assert (alice_xp, bob_xp) == (3, 3)


async def test_a_match_end_processed_twice_is_rated_once(settings: Any) -> None:
    async with (
        running_server(settings) as running,
        Client(running) as alice,
        Client(running) as bob,
    ):
        players = await linked_ids(running, alice, bob)
        done = await play_out(alice, bob, rated=True)
        once = await ratings(running, players)
        room = await running.services.store.room(done["room"]["code"])
        assert room is not None
        seats = [room.seat0_id, room.seat1_id]
        end = RatedEnd(done["match_id"], seats[done["winner"]], seats[1 - done["winner"]], length=1)
        again = await running.services.db.write(partial(rate, end=end, at=datetime.now(UTC)))
        assert again is False
        assert await ratings(running, players) == once
