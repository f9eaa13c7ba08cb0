"""Clocks of timed rooms: each person's pending decision has a deadline (rules.md 9), and what
acts when nobody else will (a bot's turn, auto-play, a clock that runs out) is armed here.

:meth:`Timers.schedule` runs after every state this process stores or loads: it arms the one
task that acts next without a person. Each process arms the clocks of the matches it writes
to; :meth:`Timers.sweep` finds, now and then, deadlines overdue in the store that no process
is acting on (the one that armed them died). Acting twice is harmless: the store's version
check lets only one action through.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import replace

from bidak.correspondence import reminder
from bidak.match import MatchState, Phase, Player, Timeout, decider
from bidak.server.play.actor import Actor, Live
from bidak.server.play.bots import Bots
from bidak.server.play.correspondence import due, forfeit_fallback, lease, store_deadline
from bidak.server.play.notices import Notify, no_notice
from bidak.server.play.queries import RoomStore
from bidak.server.play.room import Room, RoomError, is_bot_seat, player_at
from bidak.server.play.tasks import Tasks
from bidak.server.shared.settings import Settings
from bidak.server.shared.store.db import StorageError

log = logging.getLogger(__name__)


def deadline(room: Room, state: MatchState, now: float) -> tuple[float | None, int | None]:
    """A deadline for a person's pending decision in a timed room, and the version it is for
    (None, None when nobody's decision is timed)."""
    who = decider(state)
    if (
        room.move_seconds is None
        or who is None
        or state.phase is Phase.MATCH_OVER
        or state.autoplay[who]
        or is_bot_seat(room, who)
    ):
        return None, None
    return now + room.move_seconds, state.version


class Timers:
    def __init__(
        self, store: RoomStore, actor: Actor, bots: Bots, tasks: Tasks, settings: Settings
    ) -> None:
        self.store, self.actor, self.bots, self.tasks = store, actor, bots, tasks
        self.settings = settings
        self._tasks: dict[str, asyncio.Task[None]] = {}
        """The armed task of each match: a bot's turn or a clock."""
        self._sweeper: asyncio.Task[None] | None = None
        self._closing = False
        self.notify: Notify = no_notice
        """Stores a notification (time almost up); the rooms' service sets it."""

    def schedule(self, live: Live) -> None:
        """Arm what acts next without a person: a bot, auto-play, or the clock."""
        previous = self._tasks.pop(live.match_id, None)
        if previous is not None and previous is not asyncio.current_task():
            previous.cancel()
        if self._closing or live.finished:
            return
        who = decider(live.state)
        if who is None:
            return
        if is_bot_seat(live.room, who) or live.state.autoplay[who]:
            work, label = self.bots.turn(live, who), f"bot turn in {live.match_id}"
        elif live.deadline is not None and live.deadline_version == live.state.version:
            if live.room.correspondence:
                work = self._expire_correspondence(live, who)
            else:
                work = self._expire(live, who, live.deadline)
            label = f"clock of {live.match_id}"
        else:
            return
        self._tasks[live.match_id] = self.tasks.spawn(work, label)

    async def _expire(self, live: Live, player: Player, at: float) -> None:
        """At ``at``, time ``player`` out with the fallback action, if the match is still
        where it was."""
        version = live.state.version
        await self.tasks.sleep_until(at)
        fallback = await self.bots.timeout_fallback(live, player)
        try:
            await self.actor.act_for_nobody(
                live.match_id,
                lambda state: Timeout(player, fallback),
                expect_version=version,
                sleep_until=self.tasks.sleep_until,
            )
        except RoomError as refused:  # pragma: no cover - the fallback is a legal action
            log.error("timeout refused in %s: %s", live.match_id, refused)

    async def _expire_correspondence(self, live: Live, player: Player) -> None:
        """A correspondence clock: its deadline with the player's vacations, asked again each
        time it wakes (a vacation booked meanwhile moves it), then the timeout, which loses the
        match (docs/correspondence.md)."""
        player_id = player_at(live.room, player)
        db = self.store.db
        while True:
            moved = await self.with_vacations(live, player_id)
            if moved is None or moved.deadline is None:
                return  # the match moved on: its new state armed its own clock
            live, at = moved, moved.deadline
            now = self.actor.clock.now()
            if now >= at:
                break
            remind = reminder(at, float(live.room.move_seconds or 0))
            if now < remind:
                await self.tasks.sleep_until(remind)
                continue  # asked again: a vacation booked meanwhile moves the deadline
            if player_id is not None:
                # Time almost up: once per decision, whichever process gets here (the key).
                key = f"time:{live.match_id}:{live.state.version}"
                await self.notify(key, player_id, "time", live.room.code)
            await self.tasks.sleep_until(at)
        if not await lease(db, live, self.actor.clock.now()):
            return  # another process applies it (or did: the match moved on)
        try:
            await self.actor.act_for_nobody(
                live.match_id,
                lambda state: Timeout(player, forfeit_fallback(live, player)),
                expect_version=live.state.version,
                sleep_until=self.tasks.sleep_until,
            )
        except RoomError as refused:  # pragma: no cover - the fallback is a legal action
            log.error("timeout refused in %s: %s", live.match_id, refused)

    async def with_vacations(self, live: Live, player_id: str | None) -> Live | None:
        """``live`` with its stored deadline moved to when its correspondence decision really
        runs out (``player_id`` deciding, their vacations counted); None when the match moved
        on meanwhile. The clock asks each time it wakes; booking a vacation asks at once."""
        when = await due(self.store.db, live, player_id)
        if when is None or live.deadline is None or abs(when - live.deadline) <= 1e-6:
            return live
        if not await store_deadline(self.store.db, live, when):
            return None
        live = replace(live, deadline=when)
        if self.actor.known_state(live.match_id) is live.state:
            self.actor.remember(live)
        return live

    def start_sweeping(self) -> None:
        self._sweeper = self.tasks.spawn(self._sweep_forever(), "sweeper")

    async def _sweep_forever(self) -> None:
        """Now and then, act on clocks that ran out with nobody to act on them."""
        interval = self.settings.sweep_seconds
        while not self._closing:
            await self.tasks.sleep_until(self.actor.clock.now() + interval)
            try:
                await self.sweep()
            except StorageError as failed:  # the database went away: the next sweep tries again
                log.warning("sweeping overdue clocks failed: %s", failed)
            except Exception:  # pragma: no cover - a failed sweep must not stop later ones
                log.exception("sweeping overdue clocks failed")

    async def sweep(self) -> int:
        """Re-arm every clock overdue by more than the grace period; returns how many."""
        grace = self.settings.sweep_seconds
        armed = 0
        for row in await self.store.overdue(self.actor.clock.now() - grace):
            task = self._tasks.get(row.id)
            if task is not None and not task.done():
                continue
            live = await self.actor.load(row.id, fresh=True)
            self.schedule(live)
            armed += 1
        return armed

    async def stop(self) -> None:
        self._closing = True
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._sweeper
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
