"""Clocks with an injected clock: nobody sleeps, time moves when the test says so."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bidak.engine.bots import quick_bot
from bidak.match import Action, Double, MatchState, Player, can_double
from bidak.server.shared.clocks import ManualClock
from tests.server.harness import Client, friend_room, running_server, server_settings
from tests.server.scripted import Script, drive, play_all

pytestmark = pytest.mark.anyio


def _events(client: Client) -> list[dict[str, Any]]:
    return [
        item["event"]
        for message in client.messages
        if message["type"] == "events"
        for item in message["events"]
    ]


async def _friend_room(alice: Client, bob: Client, policy: str) -> dict[str, Any]:
    room, _ = await friend_room(alice, bob, move_seconds=30, timeout_policy=policy)
    await alice.join(room["code"])
    await bob.join(room["code"])
    return room


async def test_autoplay_takes_over_on_timeout_and_the_player_takes_back_control(
    tmp_path: Path,
) -> None:
    clock = ManualClock()
    async with running_server(server_settings(tmp_path), clock) as running:
        async with Client(running) as alice, Client(running) as bob:
            await _friend_room(alice, bob, "autoplay")
            snapshot = alice.messages[-1]
            deadline = snapshot["deadline"]
            assert deadline is not None and deadline["seconds"] == 30
            assert deadline["at"] == pytest.approx(clock.now() + 30)
            sleeper = deadline["player"]
            sleepy = alice if sleeper == 0 else bob

            await clock.advance(29)
            await running.services.rooms.settle()
            assert not any(e["type"] == "timed_out" for e in _events(sleepy))

            await clock.advance(2)
            await sleepy.until(
                lambda m: any(i["event"]["type"] == "autoplay_changed" for i in m.get("events", []))
            )
            kinds = [e["type"] for e in _events(sleepy)]
            assert kinds.index("timed_out") < kinds.index("autoplay_changed")
            await running.services.rooms.settle()
            assert sleepy.table is not None and sleepy.table["autoplay"][sleeper] is True

            # While auto-play is on, the bot plays the seat without waiting for the clock.
            await sleepy.act({"type": "autoplay", "on": False})
            await sleepy.until(
                lambda m: any(
                    i["event"]["type"] == "autoplay_changed" and not i["event"]["on"]
                    for i in m.get("events", [])
                )
            )
            assert sleepy.table["autoplay"][sleeper] is False


async def test_three_strikes_the_third_timeout_loses_the_match(tmp_path: Path) -> None:
    clock = ManualClock()
    async with running_server(server_settings(tmp_path), clock) as running:
        async with Client(running) as alice, Client(running) as bob:
            await _friend_room(alice, bob, "three_strikes")
            first = alice.messages[-1]["deadline"]["player"]
            for _ in range(12):
                await clock.advance(31)
                await running.services.rooms.settle()
                if any(e["type"] == "match_won" for e in _events(alice)):
                    break
                await alice.until(lambda m: m["type"] == "events")
            events = _events(alice)
            strikes = [e for e in events if e["type"] == "timed_out"]
            forfeits = [e for e in events if e["type"] == "match_forfeited"]
            assert forfeits and forfeits[0]["player"] == first
            counts = [s["strikes"] for s in strikes if s["player"] == first]
            # One strike a turn: a turn whose roll decision and play both ran out repeats it.
            assert sorted(set(counts)) == [1, 2, 3] and counts == sorted(counts)
            assert events[-1]["type"] == "match_won" and events[-1]["winner"] == 1 - first


async def test_a_clock_nobody_is_watching_is_found_by_the_sweep(tmp_path: Path) -> None:
    """The process that armed a clock died: another one acts on the overdue deadline."""
    clock = ManualClock()
    settings = server_settings(tmp_path, sweep_seconds=5.0)
    async with running_server(settings, clock) as running:
        async with Client(running) as alice, Client(running) as bob:
            await _friend_room(alice, bob, "autoplay")
            service = running.services.rooms
            match_id = alice.messages[-1]["match"]
            # Lose the armed clock, as if it lived in a process that is gone.
            task = service.timers._tasks.pop(match_id)
            task.cancel()
            await clock.advance(31)
            await service.settle()
            assert not any(e["type"] == "timed_out" for e in _events(alice))
            await clock.advance(5)  # past the grace period: the next sweep re-arms it
            await alice.until(
                lambda m: any(i["event"]["type"] == "timed_out" for i in m.get("events", []))
            )
            timed_out = [e for e in _events(alice) if e["type"] == "timed_out"]
            assert len(timed_out) == 1


def _timeouts(client: Client, player: int) -> list[dict[str, Any]]:
    return [e for e in _events(client) if e["type"] == "timed_out" and e["player"] == player]


async def _expire(running: Any, client: Client, clock: ManualClock) -> None:
    """Let the pending decision's clock run out and wait for what the server does about it."""
    before = len(client.messages)
    await clock.advance(31)
    await running.services.rooms.settle()
    await client.until(lambda m: m["type"] == "events")
    while len(client.messages) == before:  # pragma: no cover - until() above received one
        await client.receive()


async def test_a_turn_whose_roll_decision_and_play_both_time_out_is_one_strike(
    tmp_path: Path,
) -> None:
    clock = ManualClock()
    async with running_server(server_settings(tmp_path), clock) as running:
        async with Client(running) as alice, Client(running) as bob:
            await _friend_room(alice, bob, "three_strikes")
            table = alice.messages[-1]["table"]
            assert table["strikes"] == [0, 0] and table["strike_limit"] == 3
            starter = alice.messages[-1]["deadline"]["player"]
            other = 1 - starter
            await _expire(running, alice, clock)  # the starter's first play
            await running.services.rooms.settle()

            # The other player's roll decision, with the cube theirs to turn.
            assert alice.table is not None and alice.table["phase"] == "roll"
            assert alice.table["turn"] == other and alice.table["cube"]["in_use"]
            assert alice.messages[-1]["deadline"]["player"] == other
            await _expire(running, alice, clock)
            after_roll = _events(alice)
            at = after_roll.index(_timeouts(alice, other)[0])
            assert after_roll[at + 1]["type"] == "dice_rolled"  # rolled, not doubled
            assert not any(e["type"] == "doubled" for e in after_roll)

            # Then its play times out too: told, but the same strike.
            await running.services.rooms.settle()
            assert alice.table["phase"] == "move" and alice.table["turn"] == other
            await _expire(running, alice, clock)
            await running.services.rooms.settle()
            strikes = [(e["strikes"], e["left"]) for e in _timeouts(alice, other)]
            assert strikes == [(1, 2), (1, 2)]
            assert alice.table["strikes"][other] == 1 and alice.table["turn"] == starter


async def test_the_third_strike_across_two_games_loses_the_match(tmp_path: Path) -> None:
    clock = ManualClock()
    async with running_server(server_settings(tmp_path), clock) as running:
        async with Client(running) as alice, Client(running) as bob:
            await _friend_room(alice, bob, "three_strikes")
            clients = {0: alice, 1: bob}
            sleeper = alice.messages[-1]["deadline"]["player"]
            await _expire(running, alice, clock)  # strike 1, in game 1
            await running.services.rooms.settle()
            # The other player resigns game 1; the sleeper accepts (1 point to the sleeper).
            await clients[1 - sleeper].act({"type": "resign", "level": 1})
            await clients[sleeper].until(
                lambda m: "accept_resign" in ((m.get("table") or {}).get("allowed") or [])
            )
            await clients[sleeper].act({"type": "accept_resign"})
            await alice.until(
                lambda m: any(i["event"]["type"] == "game_started" for i in m.get("events", []))
            )
            await running.services.rooms.settle()

            # Game 2: nobody acts; the sleeper's strikes 2 and 3 come in it.
            for _ in range(12):
                if any(e["type"] == "match_won" for e in _events(alice)):
                    break
                await _expire(running, alice, clock)
            events = _events(alice)
            second_game = events.index(
                next(e for e in events if e["type"] == "game_started" and e["game"] == 2)
            )
            mine = [e for e in events if e["type"] == "timed_out" and e["player"] == sleeper]
            # (A turn whose roll decision and play both ran out tells the same strike twice.)
            told = list(dict.fromkeys((e["strikes"], e["left"]) for e in mine))
            assert told == [(1, 2), (2, 1), (3, 0)]
            assert events.index(mine[0]) < second_game
            assert all(events.index(e) > second_game for e in mine if e["strikes"] > 1)
            theirs = _timeouts(alice, 1 - sleeper)
            assert theirs and all(e["strikes"] < 3 for e in theirs)
            assert events[-2:] == [
                {"type": "match_forfeited", "player": sleeper},
                {
                    "type": "match_won",
                    "winner": 1 - sleeper,
                    # Lost on time is scored as a forfeit: the winner is given the length.
                    "score": [1, 3] if sleeper == 0 else [3, 1],
                },
            ]
            assert alice.table is not None and alice.table["strikes"][sleeper] == 3


class EagerDoubler:
    """A bot that doubles whenever the rules let it, and plays like the quick bot otherwise: the
    stand-in a person on auto-play must never get a double from."""

    def __init__(self) -> None:
        self.quick = quick_bot()
        self.asked_on_roll = 0

    def decide(self, state: MatchState, player: Player) -> Action:
        if can_double(state, player):
            self.asked_on_roll += 1
            return Double(player)
        return self.quick.decide(state, player)


async def test_auto_play_rolls_at_the_roll_decision_and_never_doubles(tmp_path: Path) -> None:
    clock = ManualClock()
    async with running_server(server_settings(tmp_path), clock) as running:
        async with Client(running) as alice, Client(running) as bob:
            await _friend_room(alice, bob, "autoplay")
            service = running.services.rooms
            match_id = alice.messages[-1]["match"]
            sleeper = alice.messages[-1]["deadline"]["player"]
            clients = {0: alice, 1: bob}
            # The bot auto-play would ask is one that always wants to double.
            eager = EagerDoubler()
            service.bots._bots[f"{match_id}:{sleeper}"] = eager
            await _expire(running, alice, clock)
            await service.settle()
            assert alice.table is not None and alice.table["autoplay"][sleeper] is True

            awake = Script(5)  # never doubles: the cube stays in the middle all match
            await play_all(
                drive(clients[1 - sleeper], awake, 1 - sleeper),
                drive(clients[sleeper], None, sleeper),
            )
            events = _events(alice)
            crawford = False
            rolls_with_cube = 0
            for event in events:
                if event["type"] == "game_started":
                    crawford = event["crawford"]
                if event["type"] == "dice_rolled" and event["player"] == sleeper:
                    rolls_with_cube += not crawford
            assert rolls_with_cube >= 2
            assert not any(e["type"] == "doubled" for e in events)
            assert eager.asked_on_roll == 0
            # The person on auto-play is not offered the double either, until they take back
            # control.
            assert all(
                "double" not in (m.get("table") or {}).get("allowed", [])
                for m in clients[sleeper].messages
                if m.get("table") and m["table"]["autoplay"][sleeper]
            )


async def test_a_match_stored_before_strikes_were_kept_plays_on_with_none(tmp_path: Path) -> None:
    """A stored state without strike fields (an older server's) loads as no strikes, and its
    room's clock goes on counting from there."""
    settings = server_settings(tmp_path)
    async with running_server(settings, ManualClock()) as running:
        async with Client(running) as alice, Client(running) as bob:
            room = await _friend_room(alice, bob, "three_strikes")
            match_id = alice.messages[-1]["match"]
            sleeper = alice.messages[-1]["deadline"]["player"]
            cookies = (alice.http.cookies, bob.http.cookies)
    with sqlite3.connect(tmp_path / "bidak.sqlite3") as database:
        database.execute(
            "UPDATE matches SET state = json_remove(state, '$.strikes', '$.struck') WHERE id = ?",
            (match_id,),
        )
        (stored,) = database.execute("SELECT state FROM matches WHERE id = ?", (match_id,))
        assert "strikes" not in json.loads(stored[0]) and "struck" not in json.loads(stored[0])

    clock = ManualClock()
    async with running_server(settings, clock) as running:
        async with Client(running) as alice, Client(running) as bob:
            for client, jar in zip((alice, bob), cookies, strict=True):
                client.http.cookies = jar
            snapshot = await alice.join(room["code"])
            await bob.join(room["code"])
            assert snapshot["table"]["strikes"] == [0, 0]
            await _expire(running, alice, clock)
            await running.services.rooms.settle()
            told = _timeouts(alice, sleeper)
            assert [(e["strikes"], e["left"]) for e in told] == [(1, 2)]


async def test_each_action_moves_the_clock_and_only_the_newest_deadline_times_out(
    tmp_path: Path,
) -> None:
    """A clock re-armed by actions (the sleeping clock is moved, not replaced) runs out at the
    deadline of the decision pending now, once: never at a deadline an action left behind."""
    clock = ManualClock()
    async with running_server(server_settings(tmp_path), clock) as running:
        async with Client(running) as alice, Client(running) as bob:
            room, joined = await friend_room(alice, bob, move_seconds=30, timeout_policy="autoplay")
            await alice.join(room["code"])
            await bob.join(room["code"])
            service = running.services.rooms
            players = {joined["seat"]: bob, 1 - joined["seat"]: alice}
            script = Script(7)
            # Each decision is taken 20 s into its 30 s, three in a row: every one moves the
            # clock before it runs out.
            deadlines = []
            for _ in range(3):
                await clock.advance(20)
                await service.settle()
                table = alice.table
                assert table is not None and not _timeouts(alice, 0) and not _timeouts(alice, 1)
                mover = players[alice.messages[-1]["deadline"]["player"]]
                action = script.choose(mover.table or {})
                assert action is not None
                before = alice.version
                await mover.act(action)
                await alice.until(lambda m, v=before: m["type"] == "events" and m["version"] > v)
                await service.settle()
                deadlines.append(alice.messages[-1]["deadline"])
            assert [d["at"] for d in deadlines] == sorted(d["at"] for d in deadlines)
            newest = deadlines[-1]
            # Past every deadline an action replaced, short of the newest one: nothing.
            await clock.advance(newest["at"] - clock.now() - 1)
            await service.settle()
            assert not _timeouts(alice, 0) and not _timeouts(alice, 1)
            await clock.advance(2)
            await alice.until(
                lambda m: any(i["event"]["type"] == "timed_out" for i in m.get("events", []))
            )
            await service.settle()
            timed_out = _timeouts(alice, 0) + _timeouts(alice, 1)
            assert [e["player"] for e in timed_out] == [newest["player"]]
