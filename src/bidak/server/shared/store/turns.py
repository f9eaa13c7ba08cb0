"""Turns at the database's one writing connection: the game's moves go before everything else.

A SQLite file has one writer per process (:meth:`bidak.server.shared.store.db.Database.write`), and
every write holds it through its commit. With :class:`Turns` an urgent writer (the game's moves)
waits only for the write in progress, not for the accounts, rooms and seats queued before it.
Measured: ``docs/performance.md``, "Turns at the writer".
"""

from __future__ import annotations

import asyncio
from collections import deque


class Turns:
    """A lock whose urgent waiters are served before the others, each in arrival order."""

    def __init__(self) -> None:
        self._held = False
        self._urgent: deque[asyncio.Future[None]] = deque()
        self._others: deque[asyncio.Future[None]] = deque()

    @property
    def held(self) -> bool:
        """Whether a writer has the turn."""
        return self._held

    async def acquire(self, urgent: bool = False) -> None:
        """Wait for the turn (before every non-urgent waiter if ``urgent``). A waiter that is
        cancelled gives up its place, or passes on a turn handed to it meanwhile."""
        if not self._held:  # (nobody waits while it is free: release drains the lines first)
            self._held = True
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        line = self._urgent if urgent else self._others
        line.append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self.release()  # the turn was handed over just as its waiter gave up
            elif turn in line:  # (release may have dropped it already)
                line.remove(turn)
            raise

    def release(self) -> None:
        """Hand the turn to the next waiter (urgent ones first), or free it."""
        for line in (self._urgent, self._others):
            while line:
                turn = line.popleft()
                if not turn.done():
                    turn.set_result(None)  # still held: it passes straight to that waiter
                    return
        self._held = False
