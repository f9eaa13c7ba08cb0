"""Tournaments on SQLite and PostgreSQL: an arena pairs, scores, pauses and ends; a knockout is
seeded, checked in, forfeited at a deadline and played to its champion; exactly one process
steps a tournament (its lease), another takes over when the lease runs out; coins never move."""

from __future__ import annotations

import itertools
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update
from sqlalchemy.engine import Connection

from bidak.match import ForfeitMatch
from bidak.server.shared.clocks import ManualClock
from bidak.server.shared.store.models import PlayerRow
from bidak.server.tournaments import Tournaments
from tests.server.backends import database_url, postgres_url
from tests.server.harness import Client, Running, link_addresses, running_server, server_settings

__all__ = ["database_url", "postgres_url"]
pytestmark = pytest.mark.anyio


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Any:
    return server_settings(tmp_path, database_url=database_url, arena_every_minutes=0)


async def me(client: Client) -> str:
    found: str = (await client.http.get("/api/me")).json()["id"]
    return found


async def look(client: Client, tid: str) -> dict[str, Any]:
    answer = await client.http.get(f"/api/tournaments/{tid}")
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


async def come(running: Running, room: str) -> None:
    """Both players open the table of ``room`` (its match starts when both have)."""
    found = await running.services.store.room(room)
    assert found is not None
    for seat in (found.seat0_id, found.seat1_id):
        assert seat is not None
        await running.services.rooms.arrive(room, seat)


async def lose(running: Running, room: str, player: str) -> None:
    """Both players come to the table, then ``player`` gives up the match at ``room`` (the
    Resign button): the other wins."""
    await come(running, room)
    await running.services.rooms.submit(room, player, ForfeitMatch, None)


async def coins(running: Running, players: list[str]) -> list[int]:
    rows = [await running.services.store.player(p) for p in players]
    return [row.coins for row in rows if row is not None]


async def test_an_arena_pairs_the_free_scores_streaks_and_ends(settings: Any) -> None:
    clock = ManualClock()
    async with running_server(settings, clock) as running:
        clients = [Client(running) for _ in range(4)]
        for client in clients:
            await client.__aenter__()
        try:
            service = running.services.tournaments
            tid = await service.create_arena("Test arena", clock.now(), 30, 1, 90)
            assert tid is not None
            ids = [await me(c) for c in clients]
            await link_addresses(running, *ids)  # so their arena matches are rated
            for client in clients:
                joined = await client.http.post(f"/api/tournaments/{tid}/join")
                assert joined.status_code == 200, joined.text
            listed = (await clients[0].http.get("/api/tournaments")).json()
            assert [t["id"] for t in listed["tournaments"]] == [tid]
            assert listed["tournaments"][0]["players"] == 4

            await service.tick()
            views = [await look(c, tid) for c in clients]
            rooms = {v["next_match"]["room"] for v in views}
            # Each match waits for its two players to open its table.
            assert len(rooms) == 2 and not any(v["next_match"]["started"] for v in views)
            for code in rooms:
                await come(running, code)
            views = [await look(c, tid) for c in clients]
            assert all(v["next_match"]["started"] for v in views)
            room = await running.services.store.room(views[0]["next_match"]["room"])
            assert room is not None and room.kind == "tournament" and room.rated
            # The matches are in the live list and in each player's history.
            live = (await clients[0].http.get("/api/live")).json()
            assert {(g["room"], g["kind"]) for g in live} == {(r, "tournament") for r in rooms}
            history = (await clients[0].http.get("/api/me/matches")).json()
            assert [(h["room"], h["kind"]) for h in history] == [
                (views[0]["next_match"]["room"], "tournament")
            ]

            # Player 0 wins three in a row (2 + 2 + 4), never against the same opponent
            # twice in a row.
            opponents = []
            for _ in range(3):
                mine = (await look(clients[0], tid))["next_match"]
                opponents.append(mine["opponent"])
                await lose(running, mine["room"], mine["opponent"])
                for client, pid in zip(clients[1:], ids[1:], strict=True):
                    other = (await look(client, tid))["next_match"]
                    if other is not None and other["room"] != mine["room"]:
                        await lose(running, other["room"], pid)
                        break
                await service.tick()
            assert all(a != b for a, b in itertools.pairwise(opponents))
            table = (await look(clients[0], tid))["standings"]
            assert table[0]["id"] == ids[0] and table[0]["score"] == 8
            assert table[0]["streak"] == 3 and table[0]["wins"] == 3

            # Pausing: not paired again once the match in play ends.
            paused = await clients[3].http.post(
                f"/api/tournaments/{tid}/pause", json={"paused": True}
            )
            assert paused.status_code == 204
            current = (await look(clients[3], tid))["next_match"]
            if current is not None:
                await lose(running, current["room"], ids[3])
            await service.tick()
            assert (await look(clients[3], tid))["next_match"] is None
            assert (await look(clients[3], tid))["paused"]

            # The window ends: nobody new is paired; the matches in play end; a winner.
            await clock.advance(31 * 60)
            await service.tick()
            ended = set()
            for client in clients:
                match = (await look(client, tid))["next_match"]
                if match is not None and match["room"] not in ended:
                    ended.add(match["room"])
                    await lose(running, match["room"], match["opponent"])
            await service.tick()
            final = await look(clients[0], tid)
            assert final["status"] == "finished" and final["winner"] == ids[0]
            profile = (await clients[1].http.get(f"/api/players/{ids[0]}")).json()
            assert [(r["id"], r["kind"], r["place"]) for r in profile["tournaments"]] == [
                (tid, "arena", 1)
            ]
            assert profile["trophies"] == [{"kind": "arena", "place": 1, "count": 1}]
            assert len(profile["recent"]) == profile["played"] > 0  # its rated matches
            late = await clients[1].http.post(f"/api/tournaments/{tid}/join")
            assert late.status_code == 200  # already in: nothing changes
            assert await coins(running, ids) == [0, 0, 0, 0]
        finally:
            for client in clients:
                await client.__aexit__(None, None, None)


async def test_a_knockout_by_invite_is_seeded_checked_in_and_played_out(settings: Any) -> None:
    clock = ManualClock()
    async with running_server(settings, clock) as running:
        clients = [Client(running) for _ in range(5)]
        for client in clients:
            await client.__aenter__()
        try:
            ids = [await me(c) for c in clients]
            # Ratings decide the seeds: player i has 1900 - 100 i.
            for i, pid in enumerate(ids):
                change = update(PlayerRow).where(PlayerRow.id == pid).values(rating=1900 - 100 * i)
                await running.services.db.write(partial(Connection.execute, statement=change))
            await link_addresses(running, ids[4])  # a knockout needs an account that lasts
            created = await clients[4].http.post(
                "/api/tournaments",
                json={
                    "name": "Friday",
                    "max_players": 8,
                    "lengths": [3, 5],
                    "starts_in_minutes": 5,
                    "round_minutes": 10,
                },
            )
            assert created.status_code == 201, created.text
            tid = created.json()["id"]
            assert (await clients[0].http.get("/api/tournaments")).json()["tournaments"] == []
            for client in clients[:4]:
                assert (await client.http.post(f"/api/tournaments/{tid}/join")).status_code == 200
            await running.services.tournaments.tick()
            assert (await look(clients[0], tid))["status"] == "open"

            await clock.advance(5 * 60)
            await running.services.tournaments.tick()
            view = await look(clients[0], tid)
            assert view["status"] == "running" and view["current_round"] == 0
            first = view["bracket"][0]
            # Seeds 4 and 5 are told in the notification centre; the table opens on a tap.
            for client in clients[3:5]:
                notes = (await client.http.get("/api/notifications")).json()["notes"]
                assert [n["kind"] for n in notes] == ["tournament"] and notes[0]["room"]
            assert (await clients[0].http.get("/api/notifications")).json()["notes"] == []
            # 5 players in a bracket of 8: the three best seeds have byes.
            assert [(s["a"]["seed"], s["b"] and s["b"]["seed"], s["how"]) for s in first] == [
                (1, None, "bye"),
                (4, 5, None),
                (2, None, "bye"),
                (3, None, "bye"),
            ]
            late = await Client(running).__aenter__()
            assert (await late.http.post(f"/api/tournaments/{tid}/join")).status_code == 409
            await late.__aexit__(None, None, None)

            # Seed 4 checks in, seed 5 does not: the match waits, then 5 forfeits.
            ready = await clients[3].http.post(f"/api/tournaments/{tid}/ready")
            assert ready.json()["started"] is False
            await clock.advance(10 * 60)
            await running.services.tournaments.tick()
            view = await look(clients[0], tid)
            assert (view["bracket"][0][1]["winner"], view["bracket"][0][1]["how"]) == (
                ids[3],
                "forfeit",
            )
            assert view["current_round"] == 1
            semis = view["bracket"][1]
            assert [(s["a"]["id"], s["b"]["id"]) for s in semis] == [
                (ids[0], ids[3]),
                (ids[1], ids[2]),
            ]
            # Round 2 plays 5 points: both check in, the match starts, the worse seed wins.
            for i in (0, 3, 1, 2):
                await clients[i].http.post(f"/api/tournaments/{tid}/ready")
            for i in (0, 1):
                match = (await look(clients[i], tid))["next_match"]
                assert match["started"]
                room = await running.services.store.room(match["room"])
                assert room is not None and room.rules["length"] == 5
                await lose(running, match["room"], ids[i])
            await running.services.tournaments.tick()
            final = (await look(clients[0], tid))["bracket"][2][0]
            assert (final["a"]["id"], final["b"]["id"]) == (ids[3], ids[2])
            for i in (3, 2):
                await clients[i].http.post(f"/api/tournaments/{tid}/ready")
            match = (await look(clients[2], tid))["next_match"]
            await lose(running, match["room"], ids[2])
            await running.services.tournaments.tick()
            view = await look(clients[0], tid)
            assert view["status"] == "finished" and view["winner"] == ids[3]
            assert await coins(running, ids) == [0] * 5

            # Profiles: the place of each (a private knockout shows no link), and trophies
            # for the first three.
            places = {}
            for i, pid in enumerate(ids):
                profile = (await clients[0].http.get(f"/api/players/{pid}")).json()
                [result] = profile["tournaments"]
                assert (result["id"], result["name"], result["kind"]) == (
                    None,
                    "Friday",
                    "knockout",
                )
                assert result["players"] == 5 and result["at"] == view["starts_at"]
                places[i] = result["place"]
                trophies = [(t["kind"], t["place"], t["count"]) for t in profile["trophies"]]
                assert trophies == ([("knockout", places[i], 1)] if places[i] <= 3 else [])
            assert places == {3: 1, 2: 2, 0: 3, 1: 3, 4: 5}
        finally:
            for client in clients:
                await client.__aexit__(None, None, None)


async def test_one_process_holds_the_lease_until_it_runs_out(settings: Any) -> None:
    clock = ManualClock()
    async with running_server(settings, clock) as running:
        services = running.services
        await services.tournaments.stop()  # this test steps both "processes" by hand
        other = Tournaments(
            services.db, services.rooms, services.bus, clock, services.settings, owner="other"
        )
        tid = await services.tournaments.create_arena("Lease", clock.now(), 30, 1, 90)
        assert tid is not None
        assert await services.tournaments.step(tid)
        assert not await other.step(tid)  # held by the first
        await clock.advance(5)
        assert await services.tournaments.step(tid)  # renewed
        await clock.advance(11)  # the first died: its lease ran out
        assert await other.step(tid)
        assert not await services.tournaments.step(tid)  # and it cannot take it back


async def test_the_site_schedule_makes_each_arena_once_and_a_thin_knockout_is_cancelled(
    database_url: str, tmp_path: Path
) -> None:
    settings = server_settings(tmp_path, database_url=database_url, arena_every_minutes=60)
    clock = ManualClock(1_800_000_000.0)  # 08:00 UTC on the hour
    async with running_server(settings, clock) as running, Client(running) as alone:
        services = running.services
        await services.tournaments.stop()
        twin = Tournaments(
            services.db, services.rooms, services.bus, clock, services.settings, owner="twin"
        )
        # The next hour's arena is made once, by the loop's first tick if it ran before the
        # stop (it may not have, on a loaded machine) or by this call; another process trying
        # the same slot stores nothing more.
        assert len(await services.tournaments.schedule()) <= 1
        assert await twin.schedule() == []
        listed = (await alone.http.get("/api/tournaments")).json()
        assert len(listed["tournaments"]) == 1
        assert listed["tournaments"][0]["starts_at"] == clock.now() + 3600
        assert listed["tournaments"][0]["kind"] == "arena"

        await link_addresses(running, (await alone.http.get("/api/me")).json()["id"])
        made = await alone.http.post(
            "/api/tournaments", json={"max_players": 4, "starts_in_minutes": 1}
        )
        assert made.status_code == 201
        knockout = made.json()["id"]
        assert knockout not in [
            t["id"] for t in (await alone.http.get("/api/tournaments")).json()["tournaments"]
        ]  # private: only its link finds it
        await clock.advance(61)
        await services.tournaments.step(knockout)
        assert (await look(alone, knockout))["status"] == "cancelled"


async def test_the_site_schedules_public_knockouts_that_anyone_joins_from_the_lobby(
    database_url: str, tmp_path: Path
) -> None:
    settings = server_settings(
        tmp_path,
        database_url=database_url,
        arena_every_minutes=0,
        knockout_every_minutes=360,
        knockout_players=8,
        knockout_length=5,
        knockout_round_minutes=20,
    )
    clock = ManualClock(1_800_000_000.0)  # 08:00 UTC: the next slot of six hours is 12:00
    async with running_server(settings, clock) as running:
        services = running.services
        await services.tournaments.stop()
        twin = Tournaments(
            services.db, services.rooms, services.bus, clock, services.settings, owner="twin"
        )
        await services.tournaments.schedule()  # unless the loop's first tick made it
        assert await twin.schedule() == []  # another process: the slot has its knockout
        clients = [Client(running) for _ in range(4)]
        for client in clients:
            await client.__aenter__()
        try:
            listed = (await clients[0].http.get("/api/tournaments")).json()["tournaments"]
            assert [(t["kind"], t["length"]) for t in listed] == [("knockout", 5)]
            assert listed[0]["starts_at"] == clock.now() + 4 * 3600
            tid = listed[0]["id"]
            for client in clients:
                assert (await client.http.post(f"/api/tournaments/{tid}/join")).status_code == 200
            await clock.advance(4 * 3600)
            await services.tournaments.tick()
            seen = await look(clients[0], tid)
            assert seen["status"] == "running"
            # The next slot's knockout is made once the clock is past this one's start.
            later = (await clients[0].http.get("/api/tournaments")).json()["tournaments"]
            assert [t["starts_at"] for t in later if t["status"] == "open"] == [
                clock.now() + 6 * 3600
            ]
        finally:
            for client in clients:
                await client.__aexit__(None, None, None)
