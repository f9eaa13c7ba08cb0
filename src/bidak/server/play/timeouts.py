"""Clocks of timed rooms: each person's pending decision has a deadline (rules.md 9), and what
acts when nobody else will (a bot's turn, auto-play, a clock that runs out) is armed here.

:meth:`Timers.schedule` runs after every state this process stores or loads: it arms the one
task that acts next without a person. Each process arms the clocks of the matches it writes
to; :meth:`Timers.sweep` finds, now and then, deadlines overdue in the store that no process
is acting on (the one that armed them died). Acting twice is harmless: the store's version
check lets only one action through.

A live match's clock is re-armed by every action, each time a little later. Rather than a new
task each time (and the old one cancelled), the task already asleep on the match's clock is
pointed at the new deadline (:class:`_Clock`); when it wakes it sleeps on if the deadline moved,
and times the player out otherwise. At 2,000 live matches that took 1-2 points of a core less
than a task cancelled and made on each action (``docs/performance.md``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, replace

from bidak.correspondence import reminder
from bidak.match import MatchState, Phase, Player, Timeout, decider
from bidak.server.play.actor import Actor
from bidak.server.play.bots import Bots
from bidak.server.play.correspondence import due, forfeit_fallback, lease, store_deadline
from bidak.server.play.live import Live
from bidak.server.play.notices import Notify, no_notice
from bidak.server.play.queries import RoomStore
from bidak.server.play.room import Room, RoomError, is_bot_seat, player_at
from bidak.server.play.tasks import Tasks
from bidak.server.shared.settings import Settings
from bidak.server.shared.store.db import StorageError

log = logging.getLogger(__name__)


@dataclass(slots=True)
class _Clock:
    """What a live match's clock task is asleep for: ``player``'s decision at ``live``'s
    version, which runs out at ``at``. Moved by :meth:`Timers.schedule` while it sleeps."""

    live: Live
    player: Player
    at: float
    asleep: bool = True
    """False once the task woke to act: from then on a new state gets a new task."""


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
        self._clocks: dict[str, _Clock] = {}
        """What the live clock task of a match (in :attr:`_tasks`) is asleep for."""
        self._sweeper: asyncio.Task[None] | None = None
        self._closing = False
        self.notify: Notify = no_notice
        """Stores a notification (time almost up); the rooms' service sets it."""

    def schedule(self, live: Live) -> None:
        """Arm what acts next without a person: a bot, auto-play, or the clock."""
        who = None if self._closing or live.finished else decider(live.state)
        work, clock, label = None, None, ""
        if who is None:
            pass
        elif is_bot_seat(live.room, who) or live.state.autoplay[who]:
            work, label = self.bots.turn(live, who), f"bot turn in {live.match_id}"
        elif live.deadline is not None and live.deadline_version == live.state.version:
            label = f"clock of {live.match_id}"
            if live.room.correspondence:
                work = self._expire_correspondence(live, who)
            elif self._moved(live, who, live.deadline):
                return  # the sleeping clock now wakes for this decision
            else:
                clock = _Clock(live, who, live.deadline)
                work = self._expire(clock)
        previous = self._tasks.pop(live.match_id, None)
        self._clocks.pop(live.match_id, None)
        if previous is not None and previous is not asyncio.current_task():
            previous.cancel()
        if work is None:
            return
        if clock is not None:
            self._clocks[live.match_id] = clock
        self._tasks[live.match_id] = self.tasks.spawn(work, label)

    def _moved(self, live: Live, player: Player, at: float) -> bool:
        """Point the match's live clock, if one is asleep for a deadline no later than ``at``,
        at ``player``'s decision in ``live``; False: there is none to move."""
        clock = self._clocks.get(live.match_id)
        task = self._tasks.get(live.match_id)
        if clock is None or not clock.asleep or at < clock.at or task is None or task.done():
            return False
        clock.live, clock.player, clock.at = live, player, at
        return True

    async def _expire(self, clock: _Clock) -> None:
        """At the clock's deadline, time its player out with the fallback action, if the
        match is still where it was; while asleep the clock may be moved later
        (:meth:`_moved`), and it sleeps on."""
        slept_until = None
        while slept_until != clock.at:
            slept_until = clock.at
            await self.tasks.sleep_until(slept_until)
        clock.asleep = False
        live, player = clock.live, clock.player
        version = live.state.version
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
        # Shielded: a move right after the one that armed this clock re-arms it, cancelling
        # this task, often while it still reads here; cancelled inside SQLAlchemy's driver
        # (PostgreSQL), the CancelledError stays in a local of a frame it passed, a reference
        # cycle that holds the match's state for a collector the server keeps off. The read
        # runs to its end instead, and only this task is cancelled.
        when = await asyncio.shield(due(self.store.db, live, player_id))
        if when is None or live.deadline is None or abs(when - live.deadline) <= 1e-6:
            return live
        if not await asyncio.shield(store_deadline(self.store.db, live, when)):
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
