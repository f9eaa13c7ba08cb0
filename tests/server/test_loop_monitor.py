"""The server measures its own event loop: a stall is logged with what ran, and the longest
stall and collection of the last seconds are kept for /metrics and the bench."""

from __future__ import annotations

import asyncio
import gc
import logging

import pytest

from bidak.server.shared.loop_monitor import RECENT, LoopMonitor


class Ticks:
    """A monotonic clock a test moves."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _busy_with_the_board(monitor: LoopMonitor) -> None:
    monitor.look()  # the watchdog looks while this runs on the loop's thread


def test_a_stall_is_logged_with_the_stack_that_ran(caplog: pytest.LogCaptureFixture) -> None:
    ticks = Ticks()
    lags: list[float] = []
    monitor = LoopMonitor(
        report=0.1, tick=0.02, clock=ticks, cpu=lambda: ticks.now / 2, on_lag=lags.append
    )
    ticks.now += 0.02
    assert monitor.beat() == 0.0
    ticks.now += 0.3  # the loop is stuck in one callback
    _busy_with_the_board(monitor)
    ticks.now += 0.02
    with caplog.at_level(logging.WARNING, "bidak.server.shared.loop_monitor"):
        lag = monitor.beat()
    assert lag == pytest.approx(0.3)  # late by the stall, not by the planned tick
    assert lags == [0.0, pytest.approx(0.3)]
    [record] = caplog.records
    assert "event loop stalled 300 ms, 160 ms of it on the CPU" in record.getMessage()
    assert "_busy_with_the_board" in record.getMessage()
    assert monitor.longest_stall == pytest.approx(0.3)


def test_a_short_lag_is_measured_but_not_logged(caplog: pytest.LogCaptureFixture) -> None:
    ticks = Ticks()
    monitor = LoopMonitor(report=0.1, tick=0.02, clock=ticks)
    ticks.now += 0.05
    with caplog.at_level(logging.WARNING, "bidak.server.shared.loop_monitor"):
        assert monitor.beat() == pytest.approx(0.03)
    assert caplog.records == []


def test_the_recent_longest_stall_forgets_what_is_older_than_the_period() -> None:
    ticks = Ticks()
    monitor = LoopMonitor(report=10.0, tick=0.0, clock=ticks)
    ticks.now += 0.2
    monitor.beat()
    ticks.now += 0.01
    monitor.beat()
    assert monitor.recent_stall() == pytest.approx(0.2)
    ticks.now += RECENT + 2
    monitor.beat()  # itself a stall of RECENT + 2 s
    ticks.now += 0.01
    monitor.beat()
    assert monitor.recent_stall() == pytest.approx(RECENT + 2)
    ticks.now += RECENT + 2
    assert monitor.recent_stall() == 0.0
    assert monitor.longest_stall == pytest.approx(RECENT + 2)


def test_collections_on_the_loop_thread_are_timed_and_named_in_a_stall(
    caplog: pytest.LogCaptureFixture,
) -> None:
    ticks = Ticks()
    seen = []
    monitor = LoopMonitor(report=0.1, tick=0.02, clock=ticks, on_collection=seen.append)
    monitor._gc_callback("start", {"generation": 2})
    ticks.now += 0.25
    monitor._gc_callback("stop", {"generation": 2, "collected": 7})
    ticks.now += 0.02
    with caplog.at_level(logging.WARNING, "bidak.server.shared.loop_monitor"):
        monitor.beat()
    assert [(c.generation, round(c.seconds, 3), c.found) for c in seen] == [(2, 0.25, 7)]
    assert monitor.longest_collection == pytest.approx(0.25)
    assert monitor.recent_collection() == pytest.approx(0.25)
    assert "collection of generation 2: 250 ms, 7 found" in caplog.records[0].getMessage()


def test_start_hooks_the_collector_and_stop_unhooks_it() -> None:
    async def run() -> tuple[bool, bool]:
        monitor = LoopMonitor()
        monitor.start()
        hooked = monitor._gc_callback in gc.callbacks
        await asyncio.sleep(0.05)
        await monitor.stop()
        return hooked, monitor._gc_callback in gc.callbacks

    assert asyncio.run(run()) == (True, False)
