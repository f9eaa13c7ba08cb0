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
from collections.abc import Awaitable, Callable
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
from bidak.server.shared.store.db import Database

log = logging.getLogger(__name__)

PAIR_SECONDS = 2.0
"""How often each process looks for pairs among those waiting."""


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
        self.extra_wait = extra_wait
        """Seconds a player waits before anybody may meet them (fair play's frequent leavers)."""
        self._loop: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        self._changed = False

    async def join(self, player_id: str, rating: float, options: Options) -> dict[str, Any]:
        """Wait for an opponent with ``options``; pairs at once when one is waiting (a frequent
        leaver only after their extra wait)."""
        extra = await self.extra_wait(player_id) if self.extra_wait is not None else 0.0
        since = await self.db.write(
            partial(
                queries.enqueue,
                player_id=player_id,
                rating=rating,
                options=options,
                since=self.clock.now() + extra,
            )
        )
        await self._tell(player_id, quick_waiting(since))
        await self.pair_now()
        return await self.status(player_id)

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
        # One after the other: each pair hears as soon as its own match is ready
        # (docs/performance.md, "Quick match starts its pairs one after the other").
        done = [await self._start(first, second) for first, second in pairs]
        for seeker, offered in waiting:
            if offered or seeker.player in paired:
                continue
            level = practice_offer(seeker, now)
            if level is not None and await self.db.write(
                partial(queries.mark_offered, player_id=seeker.player)
            ):
                await self._tell(seeker.player, quick_offer(level))
        return sum(done)

    async def _start(self, a: Seeker, b: Seeker) -> bool:
        try:
            await self.db.write(partial(queries.take_pair, a=a.player, b=b.player))
        except queries.Gone:
            return False  # another process paired one of them first
        first, second = (a, b) if secrets.randbelow(2) == 0 else (b, a)
        options = a.options
        rules = RuleSet(
            length=options.length,
            cube=options.cube,
            timeout_policy=TimeoutPolicy.THREE_STRIKES,
        )
        room = await self.rooms.create_quick(
            first.player, second.player, rules, options.move_seconds
        )
        for seeker in (first, second):
            await self._tell(seeker.player, quick_paired(room.code))
        return True

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
            except Exception:  # pragma: no cover - the next pass tries again
                log.exception("quick match pairing failed")

    async def stop(self) -> None:
        if self._loop is not None:
            self._loop.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._loop
