"""The event loop's own lag, measured by the server: every table waits while the loop is stuck.

:class:`LoopMonitor` runs a task that wakes every :data:`TICK` seconds and measures how late it
wakes (the loop's lag), and times every collection of Python's cyclic collector (``gc.callbacks``).
A stall over ``report`` seconds is logged as a warning with what ran: a watchdog thread that
sees the loop's heartbeat stop takes the loop thread's stack at that moment (a thread can run
while the loop's Python code runs, as the interpreter hands the GIL over every few
milliseconds), the collections that ran meanwhile are named too, and so is the CPU time the
loop thread used: far less than the stall means the process waited for a core.

The figures (the longest stall and collection of the last :data:`RECENT` seconds, and every lag
and pause) are read by ``/metrics`` (:mod:`bidak.server.shared.metrics`) and by
``bidak bench server``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

TICK = 0.02
"""Seconds between the monitor's wake-ups: lag shorter than this is not seen."""
REPORT = 0.1
"""A stall longer than this many seconds is logged with what ran."""
RECENT = 10.0
"""Seconds the recent longest stall and collection cover."""
STACK_FRAMES = 8
"""Innermost frames of the loop thread's stack a report shows."""


@dataclass
class _Recent:
    """The longest value of each whole second of the last :data:`RECENT` seconds."""

    seconds: deque[tuple[int, float]] = field(default_factory=deque)

    def add(self, at: float, value: float) -> None:
        second = int(at)
        if self.seconds and self.seconds[-1][0] == second:
            if value > self.seconds[-1][1]:
                self.seconds[-1] = (second, value)
        else:
            self.seconds.append((second, value))
        while self.seconds and self.seconds[0][0] <= second - RECENT:
            self.seconds.popleft()

    def longest(self, now: float) -> float:
        return max((v for s, v in self.seconds if s > now - RECENT - 1), default=0.0)


@dataclass(frozen=True)
class Collection:
    """One run of the cyclic collector: its generation, when it ended, how long it took."""

    generation: int
    ended: float
    seconds: float
    found: int


class LoopMonitor:
    """Measures the running loop's lag and the collector's pauses (:meth:`start`, :meth:`stop`).

    ``on_lag(seconds)`` and ``on_collection(collection)`` are told every measurement (the
    metrics' histograms); ``clock`` is the monotonic clock, injected by tests.
    """

    def __init__(
        self,
        report: float = REPORT,
        tick: float = TICK,
        clock: Callable[[], float] = time.perf_counter,
        cpu: Callable[[], float] = time.thread_time,
        on_lag: Callable[[float], None] = lambda seconds: None,
        on_collection: Callable[[Collection], None] = lambda collection: None,
    ) -> None:
        self.report, self.tick, self.clock, self.cpu = report, tick, clock, cpu
        self.on_lag, self.on_collection = on_lag, on_collection
        self.longest_stall = 0.0
        self.longest_collection = 0.0
        self._stalls = _Recent()
        self._collections = _Recent()
        self._gc_started: float | None = None
        self._since_beat: list[Collection] = []
        """The collections since the last heartbeat: what a stall report names."""
        self._beat = clock()
        self._beat_cpu = cpu()
        self._stack: tuple[float, str] | None = None
        """The loop thread's stack, taken by the watchdog during the stall in progress (with
        the heartbeat it was late for)."""
        self._loop_thread = threading.get_ident()
        self._task: asyncio.Task[None] | None = None
        self._watchdog: threading.Thread | None = None
        self._stopping = threading.Event()

    # -- what the metrics and the bench read ------------------------------------------------

    def recent_stall(self) -> float:
        """The longest loop stall of the last :data:`RECENT` seconds."""
        return self._stalls.longest(self.clock())

    def recent_collection(self) -> float:
        """The longest collection of the last :data:`RECENT` seconds."""
        return self._collections.longest(self.clock())

    # -- the collector's pauses -------------------------------------------------------------

    def _gc_callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_started = self.clock()
            return
        if self._gc_started is None:  # pragma: no cover - started before the callback was set
            return
        ended = self.clock()
        collection = Collection(
            info["generation"], ended, ended - self._gc_started, info.get("collected", 0)
        )
        self._gc_started = None
        if threading.get_ident() != self._loop_thread:
            return  # another thread's collection also stops the loop, but is told by the lag
        self._since_beat.append(collection)
        self.longest_collection = max(self.longest_collection, collection.seconds)
        self._collections.add(ended, collection.seconds)
        self.on_collection(collection)

    # -- the loop's lag ---------------------------------------------------------------------

    def beat(self) -> float:
        """Note that the loop runs now; how late it is against the previous beat's plan."""
        now, before = self.clock(), self._beat
        cpu, cpu_before = self.cpu(), self._beat_cpu
        lag = max(0.0, now - before - self.tick)
        self._beat, self._beat_cpu = now, cpu
        self._stalls.add(now, lag)
        self.longest_stall = max(self.longest_stall, lag)
        self.on_lag(lag)
        if lag > self.report:
            self._tell(lag, before, cpu - cpu_before)
        self._since_beat.clear()
        self._stack = None
        return lag

    def _tell(self, lag: float, beat: float, cpu: float) -> None:
        stack = self._stack[1] if self._stack is not None and self._stack[0] == beat else None
        collections = "; ".join(
            f"collection of generation {c.generation}: {c.seconds * 1000:.0f} ms, {c.found} found"
            for c in self._since_beat
        )
        # The loop thread's CPU time tells work from waiting: a stall with little CPU was a
        # process that waited for a core (a busy machine), not code that ran long.
        log.warning(
            "event loop stalled %.0f ms, %.0f ms of it on the CPU%s%s",
            lag * 1000,
            cpu * 1000,
            f" ({collections})" if collections else "",
            f"; it was running:\n{stack}" if stack else "",
        )

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.tick)
            self.beat()

    def look(self) -> None:
        """The watchdog's check: during a stall past ``report``, take the loop thread's stack
        (once per stall)."""
        beat = self._beat
        if self._stack is not None and self._stack[0] == beat:
            return
        if self.clock() - beat < self.report + self.tick:
            return
        frame = sys._current_frames().get(self._loop_thread)
        if frame is None:  # pragma: no cover - the loop thread is gone
            return
        stack = traceback.format_stack(frame)[-STACK_FRAMES:]
        self._stack = (beat, "".join(stack).rstrip())

    def _watch(self) -> None:
        while not self._stopping.wait(self.tick):
            self.look()

    def start(self) -> None:
        """Start measuring on the running loop."""
        self._loop_thread = threading.get_ident()
        self._beat, self._beat_cpu = self.clock(), self.cpu()
        gc.callbacks.append(self._gc_callback)
        self._task = asyncio.get_running_loop().create_task(self._run())
        self._stopping.clear()
        self._watchdog = threading.Thread(target=self._watch, name="bidak-loop-watch", daemon=True)
        self._watchdog.start()

    async def stop(self) -> None:
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._gc_callback)
        self._stopping.set()
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._watchdog is not None:
            self._watchdog.join()
            self._watchdog = None
