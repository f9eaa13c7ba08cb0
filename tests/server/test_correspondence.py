"""Correspondence matches with an injected clock: played over days to the end, a timeout
after the allowance loses the match, a vacation stops the clock, a restart between a move
and its deadline, 'Your games' and its badge (docs/correspondence.md)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from bidak.correspondence import DAY
from bidak.server.shared.clocks import ManualClock
from bidak.server.shared.store.models import PlayerRow
from tests.server.harness import (
    Client,
    catch_up,
    decides,
    friend_room,
    link_addresses,
    running_server,
    server_settings,
)
from tests.server.scripted import Script

pytestmark = pytest.mark.anyio

HOUR = 3600.0


def _events(client: Client) -> list[dict[str, Any]]:
    return [
        item["event"]
        for message in client.messages
        if message["type"] == "events"
        for item in message["events"]
    ]


async def _correspondence(alice: Client, bob: Client, days: int, **options: Any) -> dict[str, Any]:
    room, _ = await friend_room(alice, bob, length=1, days_per_move=days, **options)
    await alice.join(room["code"])
    await bob.join(room["code"])
    await catch_up(alice, bob)
    return room


async def _ids(*clients: Client) -> list[str]:
    return [(await c.http.get("/api/me")).json()["id"] for c in clients]


async def test_a_correspondence_match_is_played_over_days_to_its_end(tmp_path: Path) -> None:
    clock = ManualClock()
    start = clock.now()
    async with running_server(server_settings(tmp_path), clock) as running:
        async with Client(running) as alice, Client(running) as bob:
            room = await _correspondence(alice, bob, days=1)
            assert room["days_per_move"] == 1 and room["rules"]["timeout_policy"] == "forfeit"
            assert alice.table is not None and alice.messages[-1]["deadline"]["seconds"] == DAY
            script, decisions = Script(7), 0
            while True:
                await catch_up(alice, bob)
                table = alice.table
                assert table is not None
                if table["phase"] == "match_over":
                    break
                mover = next((c, s) for c, s in ((alice, 0), (bob, 1)) if decides(c.table or {}, s))
                await clock.advance(20 * HOUR)  # each answer comes most of a day later
                action = script.choose(mover[0].table or {})
                assert action is not None
                before = mover[0].version
                await mover[0].act(action)
                await mover[0].until(lambda m, b=before, c=mover[0]: c.version > b)
                decisions += 1
            kinds = [e["type"] for e in _events(alice)]
            assert "match_won" in kinds and "timed_out" not in kinds
            assert clock.now() - start >= decisions * 20 * HOUR > 3 * DAY


async def test_running_out_of_days_loses_the_match_and_moves_the_correspondence_rating(
    tmp_path: Path,
) -> None:
    # Rated ends are stamped with the wall clock; the ban's refund window (30 days) is judged
    # on the server's clock: start this one at the wall clock's time so the two agree.
    clock = ManualClock(time.time())
    async with running_server(server_settings(tmp_path), clock) as running:
        async with Client(running) as alice, Client(running) as bob:
            ids = await _ids(alice, bob)
            await link_addresses(running, *ids)
            await _correspondence(alice, bob, days=2, rated=True)
            deadline = alice.messages[-1]["deadline"]
            late = deadline["player"]
            assert deadline["at"] == pytest.approx(clock.now() + 2 * DAY)

            await clock.advance(2 * DAY - 60)
            await running.services.rooms.settle()
            assert "timed_out" not in [e["type"] for e in _events(alice)]

            await clock.advance(120)
            await alice.until(lambda m: (alice.table or {}).get("phase") == "match_over")
            kinds = [e["type"] for e in _events(alice)]
            assert kinds[-3:] == ["timed_out", "match_forfeited", "match_won"]
            assert _events(alice)[-1]["winner"] == 1 - late

            rows = await running.services.db.rows(
                lambda s: {p.id: p for p in s.scalars(select(PlayerRow))}
            )
            winner, loser = rows[ids[1 - late]], rows[ids[late]]
            assert winner.corr_rating > 1500.0 > loser.corr_rating
            assert winner.rating == loser.rating == 1500.0  # the live rating is another skill

            # A ban of the winner gives the loss back to the correspondence rating.
            async with Client(running) as mod:
                mod_id = (await mod.http.get("/api/me")).json()["id"]
                await running.services.fairplay.set_moderator(mod_id, True, "test")
                banned = await mod.http.post(
                    f"/api/mod/players/{winner.id}/actions", json={"kind": "ban", "note": "x"}
                )
                assert banned.status_code == 200, banned.text
                assert banned.json()["detail"].startswith("1 refund(s)")
            rows = await running.services.db.rows(
                lambda s: {p.id: p for p in s.scalars(select(PlayerRow))}
            )
            assert rows[loser.id].corr_rating == pytest.approx(1500.0)
            assert rows[loser.id].rating == 1500.0


async def test_a_vacation_stops_the_clock_and_counts_against_the_bank(tmp_path: Path) -> None:
    clock = ManualClock()
    async with running_server(server_settings(tmp_path, vacation_days=5), clock) as running:
        async with Client(running) as alice, Client(running) as bob:
            await _correspondence(alice, bob, days=1)
            late = alice.messages[-1]["deadline"]["player"]
            sleeper = (alice, bob)[late]
            await clock.advance(12 * HOUR)
            taken = await sleeper.http.post("/api/vacation", json={"days": 3})
            assert taken.status_code == 200, taken.text
            assert taken.json()["days_left"] == 2
            # Read at once, with no clock task run since: the answer came after the move.
            games = (await sleeper.http.get("/api/games")).json()
            assert games["games"][0]["deadline"] == pytest.approx(clock.now() + 3 * DAY + 12 * HOUR)
            refused = await sleeper.http.post("/api/vacation", json={"days": 2})
            assert refused.status_code == 409
            assert refused.json()["detail"]["code"] == "vacation_overlap"
            await running.services.rooms.settle()
            games = (await sleeper.http.get("/api/games")).json()
            assert games["games"][0]["deadline"] == pytest.approx(clock.now() + 3 * DAY + 12 * HOUR)

            await clock.advance(3 * DAY)  # away all along: the clock stood still
            await running.services.rooms.settle()
            assert "timed_out" not in [e["type"] for e in _events(sleeper)]

            await clock.advance(12 * HOUR + 60)  # back, and the half day left runs out
            await sleeper.until(lambda m: (sleeper.table or {}).get("phase") == "match_over")
            assert "timed_out" in [e["type"] for e in _events(sleeper)]
            # The bank is per calendar year: 3 of 5 days are spent.
            late_booking = await sleeper.http.post("/api/vacation", json={"days": 3})
            assert late_booking.json()["detail"]["code"] == "vacation_bank"


async def test_a_restart_between_a_move_and_its_deadline_times_out_once(tmp_path: Path) -> None:
    clock = ManualClock()
    settings = server_settings(tmp_path)
    async with running_server(settings, clock) as running:
        async with Client(running) as alice, Client(running) as bob:
            room = await _correspondence(alice, bob, days=1)
            assert alice.messages[-1]["deadline"]["at"] == pytest.approx(clock.now() + DAY)
            cookies = alice.http.cookies
    await clock.advance(DAY + 60)  # nobody is running when the day runs out
    async with running_server(settings, clock) as running:
        await running.services.rooms.settle()
        async with Client(running) as watcher:
            watcher.http.cookies = cookies
            snapshot = await watcher.join(room["code"])
            assert snapshot["table"]["phase"] == "match_over"
            events = await watcher.http.get(f"/api/matches/{snapshot['match']}/events")
            kinds = [e["event"]["type"] for e in events.json()["events"]]
            assert kinds.count("timed_out") == 1 and kinds[-1] == "match_won"
            games = (await watcher.http.get("/api/games")).json()
            assert games == {"now": clock.now(), "waiting": 0, "games": []}


async def test_your_games_waiting_on_you_first_and_the_badge_counts_them(tmp_path: Path) -> None:
    clock = ManualClock()
    async with running_server(server_settings(tmp_path), clock) as running:
        async with Client(running) as alice, Client(running) as bob, Client(running) as carol:
            first = await _correspondence(alice, bob, days=3)
            second = await _correspondence(alice, carol, days=1)
            games = (await alice.http.get("/api/games")).json()
            rooms = {g["room"]: g for g in games["games"]}
            assert set(rooms) == {first["code"], second["code"]}
            waiting = [g for g in games["games"] if g["yours"]]
            assert games["waiting"] == len(waiting)
            # Waiting on Alice first; among them, the least time left first.
            yours = [g["yours"] for g in games["games"]]
            assert yours == sorted(yours, reverse=True)
            deadlines = [g["deadline"] for g in waiting]
            assert deadlines == sorted(deadlines)
            for game in games["games"]:
                assert len(game["board"]) == 24
                assert sum(n for n in game["board"] if n > 0) == 15
                assert game["opponent"] is not None and game["score"] == [0, 0]


async def test_two_processes_armed_for_one_deadline_time_it_out_once(tmp_path: Path) -> None:
    clock = ManualClock()
    settings = server_settings(tmp_path)
    async with running_server(settings, clock) as first:
        async with Client(first) as alice, Client(first) as bob:
            room = await _correspondence(alice, bob, days=1)
            # A second process on the same database re-arms every unfinished clock at start.
            async with running_server(settings, clock) as second:
                await clock.advance(DAY + 60)
                await first.services.rooms.settle()
                await second.services.rooms.settle()
                await first.services.rooms.settle()
                # Each process has a bus of its own here, so read the store, not a socket.
                match = (await alice.http.get(f"/api/rooms/{room['code']}")).json()["match_id"]
                events = (await alice.http.get(f"/api/matches/{match}/events")).json()["events"]
                kinds = [e["event"]["type"] for e in events]
                assert kinds.count("timed_out") == 1 and kinds.count("match_won") == 1


async def test_rolling_is_a_tap_unless_the_player_asks_for_auto_roll(tmp_path: Path) -> None:
    clock = ManualClock()
    async with running_server(server_settings(tmp_path), clock) as running:
        async with Client(running) as alice, Client(running) as bob:
            await _correspondence(alice, bob, days=1)  # 1 point: no cube, nobody may double
            script = Script(3)
            starter = next(c for c, s in ((alice, 0), (bob, 1)) if decides(c.table or {}, s))
            second = bob if starter is alice else alice
            settings = await starter.http.get("/api/games/settings")
            assert settings.json() == {"auto_roll": False}

            async def act(client: Client) -> None:
                before = client.version
                action = script.choose(client.table or {})
                assert action is not None
                await client.act(action)
                await client.until(lambda m: client.version > before)
                await catch_up(alice, bob)

            await act(starter)  # the opening play
            # Off by default: the second player rolls by a tap although they cannot double.
            table = second.table or {}
            assert table["phase"] == "roll" and "roll" in table["allowed"]
            assert "double" not in table["allowed"]

            turned = await starter.http.put("/api/games/settings", json={"auto_roll": True})
            assert turned.json() == {"auto_roll": True}
            await act(second)  # roll
            while (second.table or {}).get("turn") == int(second is bob):
                await act(second)  # play (a single legal play is the player's too)
            # The starter asked for auto-roll: their roll was thrown for them.
            assert (starter.table or {})["phase"] in ("move", "match_over")


async def test_a_correspondence_rematch_is_a_correspondence_match(tmp_path: Path) -> None:
    clock = ManualClock()
    async with running_server(server_settings(tmp_path), clock) as running:
        async with Client(running) as alice, Client(running) as bob:
            room = await _correspondence(alice, bob, days=3)
            await alice.act({"type": "forfeit"})
            await bob.until(lambda m: (bob.table or {}).get("phase") == "match_over")
            code = room["code"]
            assert (await alice.http.post(f"/api/rooms/{code}/rematch")).json()[
                "state"
            ] == "offered"
            accepted = (await bob.http.post(f"/api/rooms/{code}/rematch")).json()
            again = (await bob.http.get(f"/api/rooms/{accepted['room']}")).json()
            assert again["days_per_move"] == 3 and again["move_seconds"] == 3 * DAY
            games = (await bob.http.get("/api/games")).json()["games"]
            assert [g["days_per_move"] for g in games] == [3]


async def test_a_deadline_kept_across_a_restart_runs_out_in_the_new_process(
    tmp_path: Path,
) -> None:
    clock = ManualClock()
    settings = server_settings(tmp_path)
    async with running_server(settings, clock) as running:
        async with Client(running) as alice, Client(running) as bob:
            room = await _correspondence(alice, bob, days=2)
            due = alice.messages[-1]["deadline"]["at"]
            cookies = alice.http.cookies
    await clock.advance(DAY)  # a day passes while the server is down
    async with running_server(settings, clock) as running:
        async with Client(running) as alice:
            alice.http.cookies = cookies
            snapshot = await alice.join(room["code"])
            assert snapshot["deadline"]["at"] == due  # the same deadline, not a new allowance
            await clock.advance(DAY - 60)
            await running.services.rooms.settle()
            assert (alice.table or {})["phase"] != "match_over"
            await clock.advance(120)
            await alice.until(lambda m: (alice.table or {}).get("phase") == "match_over")
            assert [e["type"] for e in _events(alice)].count("timed_out") == 1


async def test_a_lease_held_by_a_dead_process_is_taken_over_when_it_runs_out(
    tmp_path: Path,
) -> None:
    from sqlalchemy import update

    from bidak.server.play.tables import MatchRow

    clock = ManualClock()
    async with running_server(server_settings(tmp_path, sweep_seconds=5.0), clock) as running:
        async with Client(running) as alice, Client(running) as bob:
            room = await _correspondence(alice, bob, days=1)
            info = (await alice.http.get(f"/api/rooms/{room['code']}")).json()
            held = clock.now() + DAY + 60  # another process took the lease at the deadline, died
            table = MatchRow.__table__
            await running.services.db.write(
                lambda c: c.execute(
                    update(table).where(table.c.id == info["match_id"]).values(lease_until=held)
                )
            )
            await clock.advance(DAY + 1)
            await running.services.rooms.settle()
            assert (alice.table or {})["phase"] != "match_over"  # the lease holder's to apply
            for _ in range(20):  # the sweeper looks every 5 s; the lease runs out after 60
                await clock.advance(5)
                await running.services.rooms.settle()
            await alice.until(lambda m: (alice.table or {}).get("phase") == "match_over")
            assert [e["type"] for e in _events(alice)].count("timed_out") == 1
