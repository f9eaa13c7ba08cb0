"""Python's cyclic garbage collector, kept off the event loop's back.

A collection walks every object of the generations it collects, and with a server that replaces
each match's state on every action, CPython 3.11 collects rarely and then walks hundreds of
thousands of objects at once, stalling every table (``docs/performance.md``, "Python's cyclic
collector", has the figures).

Bidak's per-action work makes no reference cycles (``tests/server/test_cycles.py`` holds it to
that), so reference counting frees what an action leaves behind, and the collector has almost
nothing to find. :class:`Collector` therefore turns automatic collection off and, every
``every`` seconds, freezes whatever is alive into the permanent generation (a constant-time list
splice that no collection walks).

A full collection walks the whole heap: a second or more with thousands of matches, while every
table waits. It runs only when the heap has grown by ``growth`` times since the last one (what
cycles escape the rule pile up in the frozen heap) *and* this process plays no match
(``busy()`` is false), so never during play. A process that is never idle keeps its
frozen cycles until the heap has grown by ``growth`` cubed (8 times with the default): then
memory goes first, and the collection runs anyway, logged as a warning. The heap's size is read
as the interpreter's allocated memory blocks (``sys.getallocatedblocks()``).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import sys
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

STALL = 0.1
"""Seconds a full collection may take before it is logged as a warning."""

FLOOR = 500_000
"""Memory blocks added, at least, before a full collection (the app itself holds ~450,000)."""


class Collector:
    def __init__(
        self,
        every: float,
        growth: float = 2.0,
        floor: int = FLOOR,
        busy: Callable[[], bool] = lambda: False,
    ) -> None:
        self.every, self.growth, self.floor, self.busy = every, growth, floor, busy
        self.limit = floor
        """The heap's size (allocated memory blocks) past which a full collection runs as soon as
        no match is being played."""
        self.hard_limit = floor
        """The heap's size past which a full collection runs even during play."""
        self.full_collections = 0
        self._task: asyncio.Task[None] | None = None
        self._was_enabled = gc.isenabled()

    def start(self) -> None:
        """Collect once, freeze what is alive, turn automatic collection off and start the
        periodic freeze (on the running loop)."""
        self._was_enabled = gc.isenabled()
        gc.disable()
        self.full()
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            self.step()

    def step(self) -> None:
        """Freeze what is alive now; a full collection if the heap has grown past the limit
        and no match is being played here (or past the hard limit)."""
        gc.freeze()
        blocks = sys.getallocatedblocks()
        if blocks > self.hard_limit or (blocks > self.limit and not self.busy()):
            self.full()

    def full(self) -> int:
        """Collect everything, freeze the survivors and set the next limit; returns how many
        unreachable objects were found."""
        started = time.perf_counter()
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        alive = gc.get_freeze_count()
        blocks = sys.getallocatedblocks()
        self.limit = blocks + max(self.floor, int(blocks * (self.growth - 1)))
        self.hard_limit = blocks + max(self.floor, int(blocks * (self.growth**3 - 1)))
        self.full_collections += 1
        spent = time.perf_counter() - started
        # A long one stalled every table meanwhile: worth an operator's eye.
        log.log(
            logging.WARNING if spent > STALL else logging.INFO,
            "full collection: %d unreachable, %d alive, %.0f ms; the next past %d memory blocks"
            " without play, or past %d",
            found,
            alive,
            spent * 1000,
            self.limit,
            self.hard_limit,
        )
        return found

    async def stop(self) -> None:
        """Stop freezing and give the interpreter its collector back as it was."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        gc.unfreeze()
        if self._was_enabled:
            gc.enable()
