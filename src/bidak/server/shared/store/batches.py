"""Group commit: writes that arrive together are committed together.

A :class:`Batcher` has one task take every write waiting in its queue, hand them to a function that
stores them in one transaction, and then answer each writer with its own result: a writer still
waits for its commit, but a commit serves everyone who was waiting for one. Why:
``docs/performance.md``, "Group commit".
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

Item = TypeVar("Item")

WriteResult = BaseException | None
"""What one write came to: None when it was stored, else the exception its writer gets."""

WriteBatch = Callable[[Sequence[Item]], Awaitable[Sequence[WriteResult]]]


class Batcher(Generic[Item]):
    """Writes ``Item``s through ``write``, several at a time.

    ``write`` stores the items it is given, in order, and returns one outcome per item. If it
    raises, every item of the batch gets that exception.
    """

    def __init__(self, write: WriteBatch[Item], most: int = 64) -> None:
        self._write = write
        self._most = most
        self._queue: asyncio.Queue[tuple[Item, asyncio.Future[None]]] | None = None
        self._task: asyncio.Task[None] | None = None
        self._writing: list[tuple[Item, asyncio.Future[None]]] = []
        self.batches = 0
        self.items = 0

    async def submit(self, item: Item) -> None:
        """Store ``item``; returns once it is committed, or raises what its write raised."""
        if self._task is None or self._task.done():
            self._queue = asyncio.Queue()
            self._task = asyncio.create_task(self._run(self._queue))
        assert self._queue is not None
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((item, done))
        await done

    async def _run(self, queue: asyncio.Queue[tuple[Item, asyncio.Future[None]]]) -> None:
        while True:
            batch = [await queue.get()]
            while len(batch) < self._most and not queue.empty():
                batch.append(queue.get_nowait())
            self._writing = batch
            try:
                outcomes = await self._write([item for item, _ in batch])
            except Exception as failed:  # every writer of the batch hears of it
                outcomes = [failed] * len(batch)
            finally:
                self._writing = []
            self.batches += 1
            self.items += len(batch)
            for (_, done), outcome in zip(batch, outcomes, strict=True):
                if done.done():  # its writer was cancelled meanwhile
                    continue
                if outcome is None:
                    done.set_result(None)
                else:
                    done.set_exception(outcome)

    async def close(self) -> None:
        """Stop the writing task. Writes not yet committed are cancelled: their writers get
        ``CancelledError`` (a batch being written is rolled back, or committed if it was too
        late to stop; either way the store stays consistent)."""
        task, self._task = self._task, None
        waiting = list(self._writing)
        given_up = False
        if task is not None:
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                # The writing task's end, expected; but if whoever is closing was cancelled
                # meanwhile (a stop given up after a timeout), that is theirs to hear, once
                # the writers still waiting have been told.
                current = asyncio.current_task()
                given_up = current is not None and current.cancelling() > 0
        queue, self._queue = self._queue, None
        while queue is not None and not queue.empty():
            waiting.append(queue.get_nowait())
        for _, done in waiting:
            if not done.done():
                done.cancel()
        if given_up:
            raise asyncio.CancelledError
