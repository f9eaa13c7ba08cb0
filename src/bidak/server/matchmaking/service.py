"""Quick match's use cases: wait, stop waiting, pair whoever may meet, offer a bot to the patient.

A player's updates go to their own bus channel (:func:`player_channel`), which every WebSocket
of theirs listens to, in whichever process it is, as the wire's ``quick`` messages
(:data:`bidak.server.play.wire.messages.QuickMessage`: ``state`` ``waiting``, ``paired``, ``offer``
or ``left``), forwarded unchanged. Pairing runs when someone joins and every
:data:`PAIR_SECONDS` on the injected clock (the allowed rating gap widens with time, and a bot is
offered after :data:`bidak.pairing.OFFER_AFTER` seconds).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from bidak.pairing import Options, Seeker, pair, practice_offer
from bidak.server.matchmaking import queries
from bidak.server.play import (
    QuickMessage,
    RoomService,
    quick_left,
    quick_offer,
    quick_paired,
    quick_waiting,
)
from bidak.server.shared.bus import Bus, player_channel
from bidak.server.shared.clocks import Clock
from bidak.server.shared.store.batches import Batcher, WriteResult
from bidak.server.shared.store.db import Database, StorageError

log = logging.getLogger(__name__)

PAIR_SECONDS = 2.0
"""How often each process looks for pairs among those waiting."""


@dataclass
class _Join:
    """A player joining the queue; ``since`` is filled in by the write that stores it."""

    player_id: str
    rating: float
    options: Options
    at: float
    since: float = 0.0


class QuickMatch:
    def __init__(
        self,
        db: Database,
        rooms: RoomService,
        bus: Bus,
        clock: Clock,
        extra_wait: Callable[[str], Awaitable[float]] | None = None,
    ) -> None:
        self.db, self.rooms, self.bus, self.clock = db, rooms, bus, clock
        # Joins that arrive together share a commit: a crowd pressing Quick match at once
        # would otherwise wait in line for one commit each (docs/performance.md).
        self._joins: Batcher[_Join] = Batcher(self._store_joins)
        self.extra_wait = extra_wait
        """Seconds a player waits before anybody may meet them (fair play's frequent leavers)."""
        self._loop: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        self._changed = False
        self.waiting = 0
        """Players the last pass left waiting."""
        self.on_paired: Callable[[float], None] = lambda seconds: None
        """Told each paired player's wait, in seconds (the metrics)."""

    async def join(self, player_id: str, rating: float, options: Options) -> dict[str, Any]:
        """Wait for an opponent with ``options``; pairs at once when one is waiting (a frequent
        leaver only after their extra wait)."""
        extra = await self.extra_wait(player_id) if self.extra_wait is not None else 0.0
        joining = _Join(player_id, rating, options, self.clock.now() + extra)
        await self._joins.submit(joining)
        await self._tell(player_id, quick_waiting(joining.since))
        await self.pair_now()
        return await self.status(player_id)

    async def _store_joins(self, joins: Sequence[_Join]) -> list[WriteResult]:
        entries = [(join.player_id, join.rating, join.options, join.at) for join in joins]
        sinces = await self.db.write(partial(queries.enqueue_all, entries=entries))
        for join, since in zip(joins, sinces, strict=True):
            join.since = since
        return [None] * len(joins)

    async def leave(self, player_id: str) -> bool:
        left = await self.db.write(partial(queries.leave, player_id=player_id))
        if left:
            await self._tell(player_id, quick_left())
        return left

    async def status(self, player_id: str) -> dict[str, Any]:
        row = await self.db.read(partial(queries.entry, player_id=player_id))
        if row is None:
            return {"waiting": False}
        return {
            "waiting": True,
            "since": row.since,
            "waited": max(0.0, self.clock.now() - row.since),
            "options": {"length": row.length, "move_seconds": row.move_seconds, "cube": row.cube},
            "offered": row.offered,
        }

    async def pair_now(self) -> int:
        """Start a match for every pair that may meet now, and offer bots; how many started.

        Passes coalesce: a join while a pass runs marks the queue changed, and the running pass
        goes round once more instead of each join queueing a whole pass of its own; the call
        returns once that pass is done."""
        self._changed = True
        if self._lock.locked():
            # The running pass goes round once more for this call; wait for it to be done, so
            # whoever asked (a join, a test, the loop) finds the pairs started when this returns.
            async with self._lock:
                return 0
        started = 0
        async with self._lock:
            while self._changed:
                self._changed = False
                started += await self._pass()
        return started

    async def _pass(self) -> int:
        waiting = await self.db.read(queries.seekers)
        now = self.clock.now()
        # Read without the lock first: only a pass that finds a pair takes it (and pairs again,
        # under it, whoever waits then).
        if pair([s for s, _ in waiting], now):
            waiting, paired = await self._start_pairs(now)
        else:
            paired = []
        players = {seeker.player for two in paired for seeker in two}
        self.waiting = len(waiting) - len(players)
        for seeker, offered in waiting:
            if offered or seeker.player in players:
                continue
            level = practice_offer(seeker, now)
            if level is not None and await self.db.write(
                partial(queries.mark_offered, player_id=seeker.player)
            ):
                await self._tell(seeker.player, quick_offer(level))
        return len(paired)

    async def _start_pairs(
        self, now: float
    ) -> tuple[list[tuple[Seeker, bool]], list[tuple[Seeker, Seeker]]]:
        """Pair whoever waits and start their matches, in one transaction under the queue's
        lock (so the passes of several processes take turns and never pair one player twice),
        then open every table at once and tell the players (``docs/performance.md``, "Quick
        match starts its pairs in one transaction"). Who waited, and the pairs as seated."""
        seen: list[tuple[Seeker, bool]] = []
        seated: list[tuple[Seeker, Seeker]] = []

        choose = partial(queries.pair_waiting, now=now, seen=seen, seated=seated)
        rooms = await self.rooms.create_quicks(choose)
        told = []
        at = self.clock.now()
        for (first, second), room in zip(seated, rooms, strict=True):
            for seeker in (first, second):
                self.on_paired(max(0.0, at - seeker.since))
                told.append(self._tell(seeker.player, quick_paired(room.code)))
        await asyncio.gather(*told)
        return seen, seated

    async def _tell(self, player_id: str, message: QuickMessage) -> None:
        try:
            await self.bus.publish(player_channel(player_id), message)
        except Exception:  # the queue is in the database: a lost update is seen on reload
            log.warning("could not tell %s about quick match: %r", player_id, message)

    # -- the background pass --------------------------------------------------------------

    def start(self) -> None:
        self._loop = asyncio.create_task(self._forever())

    async def _forever(self) -> None:
        while True:
            await self.clock.sleep_until(self.clock.now() + PAIR_SECONDS)
            try:
                await self.pair_now()
            except StorageError as failed:  # the database went away: the next pass tries again
                log.warning("quick match pairing failed: %s", failed)
            except Exception:  # pragma: no cover - the next pass tries again
                log.exception("quick match pairing failed")

    async def stop(self) -> None:
        if self._loop is not None:
            self._loop.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._loop
        await self._joins.close()
