"""The engine's work for HTTP requests (hints, match reviews), kept from crowding out the game.

The server keeps one for hints and one for reviews, apart from the bots' pool, so neither a bot's
move nor a hint waits behind a review. The pool takes a bounded number of analyses (running and
waiting): past that a request is refused with :class:`Busy` at once instead of queueing work that
would occupy the machine's cores for minutes (``docs/performance.md``). A review is kept per match
version and level, and requests for a review that is being computed wait for that one computation.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")

KEEP = 64
"""Reviews kept in memory (the least recently asked for go first)."""


class Busy(Exception):
    """The analysis pool has as many analyses as it admits; ask again shortly."""


class Analyst:
    def __init__(
        self, workers: int = 1, waiting: int = 4, name: str = "bidak-analysis", keep: int = KEEP
    ) -> None:
        self._pool = concurrent.futures.ThreadPoolExecutor(workers, name)
        # Released when the work ends on its thread (not when its caller stops waiting), so a
        # request whose browser went away still counts until its analysis is done.
        self._slots = threading.BoundedSemaphore(workers + waiting)
        self._keep = keep
        self._reviews: OrderedDict[Hashable, dict[str, Any]] = OrderedDict()
        self._pending: dict[Hashable, asyncio.Future[dict[str, Any]]] = {}
        # Each written by one thread only: admitted on the loop's, done on the pool's.
        self._admitted = 0
        self._done = 0

    async def run(self, work: Callable[[], T]) -> T:
        """``work()`` on the analysis pool; :class:`Busy` when the pool admits no more."""
        if not self._slots.acquire(blocking=False):
            raise Busy("The engine is busy with other analyses; try again in a moment")
        try:
            future = self._pool.submit(work)
        except BaseException:
            self._slots.release()
            raise
        self._admitted += 1
        future.add_done_callback(self._finished)
        return await asyncio.wrap_future(future)

    def _finished(self, _: object) -> None:
        self._done += 1
        self._slots.release()

    @property
    def queued(self) -> int:
        """Analyses admitted and not yet done."""
        return self._admitted - self._done

    def kept(self, key: Hashable) -> dict[str, Any] | None:
        """The review ``key`` names if it is kept."""
        found = self._reviews.get(key)
        if found is not None:
            self._reviews.move_to_end(key)
        return found

    async def review(self, key: Hashable, work: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """The review ``key`` names: kept, being computed, or computed now by ``work()``."""
        kept = self.kept(key)
        if kept is not None:
            return kept
        pending = self._pending.get(key)
        if pending is None:
            pending = self._pending[key] = asyncio.ensure_future(self.run(work))
            pending.add_done_callback(lambda done: self._settle(key, done))
        # One caller giving up must not cancel the computation the others wait for.
        return await asyncio.shield(pending)

    def _settle(self, key: Hashable, done: asyncio.Future[dict[str, Any]]) -> None:
        self._pending.pop(key, None)
        if done.cancelled() or done.exception() is not None:
            return
        self._reviews[key] = done.result()
        while len(self._reviews) > self._keep:
            self._reviews.popitem(last=False)

    def close(self) -> None:
        """Stop taking work; analyses already running finish in the background."""
        self._pool.shutdown(wait=False, cancel_futures=True)
