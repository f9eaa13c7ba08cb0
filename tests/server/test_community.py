"""Profiles, the leaderboard and live games, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update

from bidak.server.play.rated_queries import RatedEnd, rate
from bidak.server.shared.store.models import PlayerRow
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


async def me(client: Client) -> dict[str, Any]:
    found: dict[str, Any] = (await client.http.get("/api/me")).json()
    return found


async def rated_match(alice: Client, bob: Client, seed: int) -> dict[str, Any]:
    room, _ = await friend_room(alice, bob, length=1, rated=True)
    for client in (alice, bob):  # a new match: forget the last one's table
        client.table, client.version = None, 0
    await alice.join(room["code"])
    await bob.join(room["code"])
    finals = await play_all(drive(alice, Script(seed), 0), drive(bob, Script(seed + 1), 1))
    info = (await alice.http.get(f"/api/rooms/{room['code']}")).json()
    return {"match_id": info["match_id"], "winner": finals[0]["winner"], "room": room["code"]}


async def test_a_profile_shows_results_streak_recent_matches_and_pr(settings: Any) -> None:
    async with (
        running_server(settings) as running,
        Client(running) as alice,
        Client(running) as bob,
    ):
        a, b = await me(alice), await me(bob)
        await link_addresses(running, a["id"], b["id"])
        results = [await rated_match(alice, bob, seed) for seed in (1, 3, 5)]
        review = await alice.http.get(
            f"/api/matches/{results[0]['match_id']}/review", params={"level": "1ply"}
        )
        assert review.status_code == 200

        profile = (await bob.http.get(f"/api/players/{a['id']}")).json()
        wins = [r["winner"] == 0 for r in results]
        assert profile["name"] == a["name"] and profile["played"] == 3
        assert profile["won"] == sum(wins) and profile["experience"] == 3
        assert "email" not in profile and a["id"] == profile["id"]
        newest_first = list(reversed(wins))
        run = next((i for i, w in enumerate(newest_first) if w != newest_first[0]), 3)
        assert profile["streak"] == (run if newest_first[0] else -run)
        assert [m["match_id"] for m in profile["recent"]] == [
            r["match_id"] for r in reversed(results)
        ]
        assert all(
            m["opponent_id"] == b["id"] and m["opponent"] == b["name"] for m in profile["recent"]
        )
        assert profile["recent"][0]["review"] == f"/#/review/{results[-1]['match_id']}"
        assert profile["reviewed"] == 1 and profile["average_pr"] is not None
        assert profile["rating"] == pytest.approx(
            1500 + sum(m["rating_change"] for m in profile["recent"]), abs=0.05
        )
        assert (await bob.http.get("/api/players/nobody")).status_code == 404


async def make_player(running: Running, name: str) -> str:
    player, _ = await running.services.store.create_guest(name)
    await link_addresses(running, player.id)
    return player.id


async def set_standing(running: Running, player: str, rating: float, experience: int) -> None:
    table = PlayerRow.__table__
    await running.services.db.write(
        lambda c: c.execute(
            update(table).where(table.c.id == player).values(rating=rating, experience=experience)
        )
    )


async def a_rated_end(running: Running, winner: str, loser: str, at: datetime) -> None:
    """Store a finished rated match between two players at ``at`` (as its end would)."""
    from bidak.server.play.options import FriendOptions

    services = running.services
    first = await services.store.player(winner)
    second = await services.store.player(loser)
    assert first is not None and second is not None
    room = await services.rooms.create_friend(first, FriendOptions(length=1))
    await services.rooms.join(room.code, second)
    room = await services.rooms.room(room.code)
    assert room.match_id is not None
    await services.db.write(partial(rate, end=RatedEnd(room.match_id, winner, loser, 1), at=at))


async def test_the_leaderboard_ranks_active_experienced_players(settings: Any) -> None:
    async with running_server(settings) as running, Client(running) as viewer:
        now = datetime.now(UTC)
        me_id = (await me(viewer))["id"]
        sparring = await make_player(running, "Spar Partner")
        standings = {
            "Top Player": (1900, 500),
            "Tied Veteran": (1700, 900),
            "Tied Junior": (1700, 60),
            "New Comer": (2000, 10),  # too little experience
            "Long Gone": (1950, 800),  # no rated match in 60 days
        }
        ids = {name: await make_player(running, name) for name in standings}
        for name, player in ids.items():
            when = now - timedelta(days=61 if name == "Long Gone" else 1)
            await a_rated_end(running, player, sparring, when)
        await link_addresses(running, me_id)
        await a_rated_end(running, me_id, sparring, now - timedelta(days=2))
        for name, (rating, experience) in standings.items():
            await set_standing(running, ids[name], rating, experience)
        await set_standing(running, sparring, 1000, 10)

        board = (await viewer.http.get("/api/leaderboard")).json()
        assert [row["name"] for row in board["leaders"]] == [
            "Top Player",
            "Tied Veteran",
            "Tied Junior",
        ]
        assert [row["rank"] for row in board["leaders"]] == [1, 2, 3]
        assert board["your_rank"] is None  # experience 1: not on the board yet
        # ... and told how far: 49 experience to go is ten more rated 5-point matches.
        assert (board["your_experience"], board["matches_to_go"]) == (1, 10)

        await set_standing(running, me_id, 1800, 50)
        board = (await viewer.http.get("/api/leaderboard")).json()
        assert board["your_rank"] == 2
        assert [row["name"] for row in board["leaders"]][1] == (await me(viewer))["name"]


async def test_the_live_list_shows_public_matches_in_play(settings: Any) -> None:
    async with (
        running_server(settings) as running,
        Client(running) as alice,
        Client(running) as bob,
        Client(running) as carol,
        Client(running) as dave,
    ):
        public, _ = await friend_room(alice, bob)
        private, _ = await friend_room(carol, dave, private=True)
        await alice.http.post(
            "/api/rooms", json={"kind": "practice", "length": 1, "level": "beginner"}
        )
        games = (await carol.http.get("/api/live")).json()
        assert [g["room"] for g in games] == [public["code"]]
        game = games[0]
        assert [p["name"] for p in game["players"]] == [
            (await me(alice))["name"],
            (await me(bob))["name"],
        ]
        assert game["players"][0]["rating"] == 1500 and game["length"] == 3
        assert game["score"] == [0, 0]
        assert private["code"] not in {g["room"] for g in games}
