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
        task = asyncio.create_task(work)
        self._busy[task] = label
        task.add_done_callback(self._finished)
        return task

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._busy.pop(task, None)

    async def sleep_until(self, when: float) -> None:
        """Wait for the clock to reach ``when``, not counted as busy meanwhile."""
        # No local names the task: a task cancelled here (a move clock re-armed by every
        # action) keeps its CancelledError, whose traceback keeps every frame of this await;
        # a frame holding the task would make a reference cycle of each one, left for the
        # cyclic collector with the match's whole state (docs/performance.md).
        label = self._busy.pop(asyncio.current_task(), None)  # type: ignore[arg-type]
        try:
            await self.clock.sleep_until(when)
        finally:
            if label is not None:
                self._busy[asyncio.current_task()] = label  # type: ignore[index]

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
