"""Clocks with an injected clock: nobody sleeps, time moves when the test says so."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bidak.server.clocks import ManualClock
from tests.server.harness import Client, friend_room, running_server, server_settings

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
                await alice.until(lambda m: m["type"] == "events", timeout=5)
            events = _events(alice)
            strikes = [e for e in events if e["type"] == "timed_out"]
            forfeits = [e for e in events if e["type"] == "match_forfeited"]
            assert forfeits and forfeits[0]["player"] == first
            assert [s["strikes"] for s in strikes if s["player"] == first] == [1, 2, 3]
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
            task = service._tasks.pop(match_id)
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
