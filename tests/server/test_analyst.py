"""The analysis pool admits a bounded amount of engine work and computes each review once."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from bidak.server.analysis.analyst import Analyst, Busy

pytestmark = pytest.mark.anyio


def blocked(release: threading.Event, value: Any = None) -> Any:
    def work() -> Any:
        assert release.wait(10), "the test never released the work"
        return value

    return work


async def test_work_past_the_threads_and_the_line_is_refused_at_once() -> None:
    analyst = Analyst(workers=1, waiting=1)
    release = threading.Event()
    try:
        running = asyncio.ensure_future(analyst.run(blocked(release, 1)))
        waiting = asyncio.ensure_future(analyst.run(blocked(release, 2)))
        await asyncio.sleep(0)
        with pytest.raises(Busy, match="try again"):
            await analyst.run(lambda: 3)
        release.set()
        assert await running == 1 and await waiting == 2
        assert await analyst.run(lambda: 4) == 4, "finished work frees its place"
    finally:
        release.set()
        analyst.close()


async def test_a_caller_that_gives_up_keeps_its_place_until_the_work_ends() -> None:
    analyst = Analyst(workers=1, waiting=0)
    release, started = threading.Event(), threading.Event()

    def work() -> None:
        started.set()
        release.wait(10)

    try:
        gone = asyncio.ensure_future(analyst.run(work))
        while not started.is_set():
            await asyncio.sleep(0.001)
        gone.cancel()
        with pytest.raises(asyncio.CancelledError):
            await gone
        with pytest.raises(Busy):  # the engine is still working for nobody
            await analyst.run(lambda: None)
        release.set()
        for _ in range(1000):
            try:
                assert await analyst.run(lambda: 5) == 5
                break
            except Busy:
                await asyncio.sleep(0.001)
        else:
            raise AssertionError("the place was never given back")
    finally:
        release.set()
        analyst.close()


async def test_a_review_asked_for_twice_at_once_is_computed_once_and_kept() -> None:
    analyst = Analyst(workers=2, waiting=0)
    release = threading.Event()
    calls: list[int] = []

    def review() -> dict[str, Any]:
        calls.append(1)
        release.wait(10)
        return {"review": len(calls)}

    try:
        first = asyncio.ensure_future(analyst.review("m1", review))
        second = asyncio.ensure_future(analyst.review("m1", review))
        await asyncio.sleep(0)
        second.cancel()  # one browser leaves; the other still gets the review
        release.set()
        assert await first == {"review": 1}
        assert await analyst.review("m1", review) == {"review": 1}
        assert analyst.kept("m1") == {"review": 1}
        assert calls == [1]
    finally:
        release.set()
        analyst.close()


async def test_a_failed_review_is_not_kept() -> None:
    analyst = Analyst(workers=1, waiting=0)
    outcomes = iter([ValueError("engine failed"), {"review": "ok"}])

    def review() -> dict[str, Any]:
        outcome = next(outcomes)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    try:
        with pytest.raises(ValueError, match="engine failed"):
            await analyst.review("m1", review)
        assert analyst.kept("m1") is None
        assert await analyst.review("m1", review) == {"review": "ok"}
    finally:
        analyst.close()


async def test_only_the_most_recent_reviews_are_kept() -> None:
    analyst = Analyst(workers=1, waiting=0, keep=2)
    try:
        for key in ("a", "b", "c"):
            await analyst.review(key, lambda key=key: {"key": key})
        assert analyst.kept("a") is None
        assert analyst.kept("b") == {"key": "b"} and analyst.kept("c") == {"key": "c"}
    finally:
        analyst.close()
