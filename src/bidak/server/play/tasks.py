"""The rooms' background work (bot turns, clocks, the sweeper) and how a test waits for it.

Each piece of work runs in a task of its own (:meth:`Tasks.spawn`) and counts as busy except
while it waits for the clock (:meth:`Tasks.sleep_until`): once nothing is busy, only a move of
the clock can make anything happen, which is what a test with a manual clock waits for
(:meth:`Tasks.settle`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

from bidak.server.shared.clocks import Clock

SETTLE_CHECKS = 4000
SETTLE_PAUSE = 0.005
"""How often and how far apart :meth:`Tasks.settle` looks before it gives up (20 s and more)."""


class Tasks:
    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._busy: dict[asyncio.Task[Any], str] = {}
        """The tasks at work (not waiting for the clock), each with what it is doing."""

    def spawn(self, work: Coroutine[Any, Any, None], label: str) -> asyncio.Task[None]:
        """Run ``work`` (``label`` says what it is, for :meth:`settle`'s complaint)."""
        return asyncio.create_task(self._tracked(work, label))

    async def _tracked(self, work: Coroutine[Any, Any, None], label: str) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._busy[task] = label
        try:
            await work
        finally:
            self._busy.pop(task, None)

    async def sleep_until(self, when: float) -> None:
        """Wait for the clock to reach ``when``, not counted as busy meanwhile."""
        task = asyncio.current_task()
        label = None if task is None else self._busy.pop(task, None)
        try:
            await self.clock.sleep_until(when)
        finally:
            if task is not None and label is not None:
                self._busy[task] = label

    @property
    def busy(self) -> list[str]:
        """What the tasks at work are doing."""
        return sorted(self._busy.values())

    async def settle(self) -> None:
        """Wait until every task is done or waiting for the clock (for tests that move a manual
        clock); TimeoutError, naming what is still at work, if that does not happen."""
        for _ in range(SETTLE_CHECKS):
            if not self._busy:
                return
            await asyncio.sleep(SETTLE_PAUSE)
        raise TimeoutError(f"the rooms did not settle; still busy: {', '.join(self.busy)}")
