"""The worker pool: bots answer off the event loop, within their budget, and survive
cancellation."""

from __future__ import annotations

import asyncio
import threading
import time
from dataclasses import replace

import pytest

from bidak.engine.bots import make_bot
from bidak.engine.workers import BotPool, decide_async
from bidak.match import (
    Action,
    MatchState,
    Move,
    Phase,
    Player,
    Roll,
    RuleSet,
    check_action,
    new_match,
)

ONE = Player.ONE
STATE = replace(new_match(RuleSet(length=5)), phase=Phase.MOVE, turn=ONE, dice=(6, 5))
RUN = Move(ONE, ((24, 18), (18, 13)))  # the engine's best 6-5 from the start


class SlowBot:
    """Sleeps (releasing the GIL, like bgsage's N-ply search) before it rolls."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.started = threading.Event()
        self.finished = threading.Event()
        self.calls = 0

    def decide(self, state: MatchState, player: Player) -> Action:
        self.calls += 1
        self.started.set()
        time.sleep(self.seconds)
        self.finished.set()
        return Roll(player)


class BrokenBot:
    def decide(self, state: MatchState, player: Player) -> Action:
        raise RuntimeError("bug in a bot")


def run(coroutine: object) -> object:
    return asyncio.run(coroutine)  # type: ignore[arg-type]


def test_a_bot_answers_off_the_event_loop_thread() -> None:
    seen: list[str] = []

    class Recorder:
        def decide(self, state: MatchState, player: Player) -> Action:
            seen.append(threading.current_thread().name)
            return make_bot("normal", 1).decide(state, player)

    async def main() -> Action:
        async with BotPool(1) as pool:
            return await pool.decide(Recorder(), STATE, ONE, timeout=5.0)

    action = run(main())
    check_action(STATE, action)  # type: ignore[arg-type]
    assert seen and seen[0].startswith("bidak-bot")


def test_an_overrunning_bot_falls_back_to_the_engines_best_in_time() -> None:
    slow = SlowBot(1.5)

    async def main() -> tuple[Action, float]:
        async with BotPool(1) as pool:
            started = time.perf_counter()
            action = await pool.decide(slow, STATE, ONE, timeout=0.4)
            return action, time.perf_counter() - started

    action, took = run(main())  # type: ignore[misc]
    assert action == RUN
    assert took < 0.5
    assert not slow.finished.is_set()


def test_a_failing_bot_falls_back_too() -> None:
    async def main() -> Action:
        async with BotPool(1) as pool:
            return await pool.decide(BrokenBot(), STATE, ONE, timeout=2.0)

    assert run(main()) == RUN


def test_an_instant_legal_action_when_even_the_fallback_is_late(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def main() -> Action:
        async with BotPool(1) as pool:
            monkeypatch.setattr(pool, "_quick", SlowBot(1.0))
            return await pool.decide(SlowBot(1.0), STATE, ONE, timeout=0.2)

    action = run(main())
    check_action(STATE, action)  # type: ignore[arg-type]


def test_cancelling_leaves_the_pool_usable() -> None:
    running, queued = SlowBot(0.5), SlowBot(0.5)

    async def main() -> Action:
        async with BotPool(1) as pool:
            first = asyncio.create_task(pool.decide(running, STATE, ONE, timeout=10.0))
            second = asyncio.create_task(pool.decide(queued, STATE, ONE, timeout=10.0))
            await asyncio.sleep(0.1)
            assert running.started.is_set() and not queued.started.is_set()
            first.cancel()
            second.cancel()
            for task in (first, second):
                with pytest.raises(asyncio.CancelledError):
                    await task
            # The running search finishes on its worker; the queued one never starts.
            await asyncio.sleep(0.6)
            assert running.finished.is_set() and queued.calls == 0
            return await pool.decide(make_bot("normal", 2), STATE, ONE, timeout=5.0)

    action = run(main())
    check_action(STATE, action)  # type: ignore[arg-type]


def test_decide_async_uses_a_shared_pool_by_default() -> None:
    async def main() -> list[Action]:
        bots = [make_bot("beginner", seed) for seed in range(4)]
        return await asyncio.gather(*(decide_async(bot, STATE, ONE, timeout=5.0) for bot in bots))

    for action in run(main()):  # type: ignore[attr-defined]
        check_action(STATE, action)
