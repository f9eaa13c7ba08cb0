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
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from bidak.match import RuleSet, TimeoutPolicy
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
    def __init__(self, db: Database, rooms: RoomService, bus: Bus, clock: Clock) -> None:
        self.db, self.rooms, self.bus, self.clock = db, rooms, bus, clock
        # Joins that arrive together share a commit: a crowd pressing Quick match at once
        # would otherwise wait in line for one commit each (docs/performance.md).
        self._joins: Batcher[_Join] = Batcher(self._store_joins)
        self._loop: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        self._changed = False
        self.waiting = 0
        """Players the last pass left waiting."""
        self.on_paired: Callable[[float], None] = lambda seconds: None
        """Told each paired player's wait, in seconds (the metrics)."""

    async def join(self, player_id: str, rating: float, options: Options) -> dict[str, Any]:
        """Wait for an opponent with ``options``; pairs at once when one is waiting."""
        joining = _Join(player_id, rating, options, self.clock.now())
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
        goes round once more instead of each join queueing a whole pass of its own."""
        self._changed = True
        if self._lock.locked():
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
        pairs = pair([s for s, _ in waiting], now)
        paired = {seeker.player for two in pairs for seeker in two}
        self.waiting = len(waiting) - len(paired)
        # All in one transaction, then every table opened at once (their opening rolls share
        # commits), then the players told (docs/performance.md, "Quick match starts its pairs
        # in one transaction").
        done = await self._start_all(pairs) if pairs else 0
        for seeker, offered in waiting:
            if offered or seeker.player in paired:
                continue
            level = practice_offer(seeker, now)
            if level is not None and await self.db.write(
                partial(queries.mark_offered, player_id=seeker.player)
            ):
                await self._tell(seeker.player, quick_offer(level))
        return done

    async def _start_all(self, pairs: list[tuple[Seeker, Seeker]]) -> int:
        """Start a match for each pair still in the queue (another process may have taken one
        of a pair first); how many started."""
        seated = [(a, b) if secrets.randbelow(2) == 0 else (b, a) for a, b in pairs]
        starts = [
            (
                first.player,
                second.player,
                RuleSet(
                    length=first.options.length,
                    cube=first.options.cube,
                    timeout_policy=TimeoutPolicy.THREE_STRIKES,
                ),
                first.options.move_seconds,
            )
            for first, second in seated
        ]
        claim = partial(queries.take_pairs, pairs=[(a.player, b.player) for a, b in seated])
        rooms = await self.rooms.create_quicks(starts, claim)
        now = self.clock.now()
        told = []
        for (first, second), room in zip(seated, rooms, strict=True):
            if room is None:
                continue
            for seeker in (first, second):
                self.on_paired(max(0.0, now - seeker.since))
                told.append(self._tell(seeker.player, quick_paired(room.code)))
        await asyncio.gather(*told)
        return sum(room is not None for room in rooms)

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
