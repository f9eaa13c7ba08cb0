"""The rooms service: the one object the rest of the server uses for rooms and their matches.

:class:`RoomService` is a facade over the package's parts, and holds the rooms' life cycle
itself: creating a room of each kind, seating a player, starting the match when both seats are
taken, and (re)starting and stopping the service. The rest lives in:

- :mod:`~bidak.server.play.room`: the room as a value, its kinds, seats and bot seat;
- :mod:`~bidak.server.play.queries`: rooms, matches and event logs in the database;
- :mod:`~bidak.server.play.actor`: the one writer of a match (apply, store, publish);
- :mod:`~bidak.server.play.bots`: bot seats, auto-play and the timed-out player's fallback;
- :mod:`~bidak.server.play.timeouts`: deadlines, what is armed to act next, the sweeper;
- :mod:`~bidak.server.play.tasks`: the background tasks and :meth:`RoomService.settle`;
- :mod:`~bidak.server.play.rematch` and :mod:`~bidak.server.play.talk`: after the match and
  at the table.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
from typing import Any

from bidak.correspondence import VacationError
from bidak.engine.workers import BotPool
from bidak.match import Action, Phase, Player, RuleSet, decider, rules_from_json, rules_to_json
from bidak.server.play.actor import Actor
from bidak.server.play.bots import Bots
from bidak.server.play.corr_queries import auto_rolls, set_auto_roll, take_vacation, unfinished
from bidak.server.play.dice import new_seed
from bidak.server.play.live import Live, live_from_row
from bidak.server.play.notices import Notify, notices
from bidak.server.play.options import FriendOptions, PracticeOptions
from bidak.server.play.queries import ChoosePairs, NewRoom, RoomStore, room_value
from bidak.server.play.room import (
    TOURNAMENT_ENDS,
    Room,
    RoomError,
    RoomKind,
    canonical_code,
    new_room_code,
    player_at,
    seat_of,
)
from bidak.server.play.tables import RoomRow
from bidak.server.play.tasks import Tasks
from bidak.server.play.timeouts import Timers, deadline
from bidak.server.play.views import Views
from bidak.server.play.wire.notes import EventsNote
from bidak.server.play.your_games import Vacation, YourGame, vacation, your_games
from bidak.server.shared.bus import Bus
from bidak.server.shared.clocks import Clock
from bidak.server.shared.doors import Door, refused
from bidak.server.shared.settings import Settings
from bidak.server.shared.store.models import PlayerRow

ROOM_CACHE = 10_000
"""Rooms kept in memory per process (the oldest are dropped first)."""


class RoomService:
    def __init__(
        self,
        store: RoomStore,
        bus: Bus,
        clock: Clock,
        settings: Settings,
        pool: BotPool,
        seeds: Callable[[], str] = new_seed,
    ) -> None:
        self.store, self.bus, self.clock, self.settings = store, bus, clock, settings
        self._rooms: dict[str, Room] = {}
        self.tasks = Tasks(clock)
        self.actor = Actor(
            store,
            bus,
            clock,
            seeds,
            room=self.room,
            deadline=deadline,
            stored=self._stored,
            manual=self._manual,
        )
        self.bots = Bots(self.actor, self.tasks, pool, settings)
        self.timers = Timers(store, self.actor, self.bots, self.tasks, settings)
        self.views = Views(self.actor.known_state)
        self.on_action: Callable[[str, float], None] = lambda outcome, seconds: None
        """Told each intent's outcome (``accepted`` or the refusal's code) and its seconds from
        arrival to stored and published (the metrics)."""

    @property
    def notify(self) -> Notify:
        """Stores a notification (the app sets the notification centre's): a turn, a match
        over, time almost up (the clocks'), a tournament match made."""
        return self.timers.notify

    @notify.setter
    def notify(self, notify: Notify) -> None:
        self.timers.notify = notify

    def _stored(self, live: Live) -> None:
        """After each state this process stored: arm what acts next; forget a finished match."""
        self.timers.schedule(live)
        for notice in notices(live.room, live.match_id, live.state):
            work = self.notify(notice.key, notice.player_id, notice.kind, notice.room)
            self.tasks.spawn(work, f"notice {notice.key}")
        if live.finished:
            self.bots.forget(live.match_id)
            if live.room.kind is RoomKind.TOURNAMENT:
                self.tasks.spawn(self._tell_tournaments(live.room.code), "tournament end")

    async def _tell_tournaments(self, code: str) -> None:
        try:
            await self.bus.publish(TOURNAMENT_ENDS, {"room": code})
        except Exception:  # the tournaments' next tick finds the end in the database
            return

    # -- life cycle --------------------------------------------------------------------------

    async def start(self) -> int:
        """Re-arm every unfinished match's clock and bot after a (re)start; returns how many."""
        rows = await self.store.live_matches()
        for row in rows:
            room = await self.store.room(row.room_code)
            if room is None:  # pragma: no cover - rooms are never deleted
                continue
            live = live_from_row(row, room)
            self.actor.remember(live)
            self.timers.schedule(live)
            if live.state.phase is Phase.OPENING:
                # Killed between storing a new match and its opening roll: nobody decides
                # the opening, so throw it now or the match waits forever.
                await self.actor.act(row.id, None, lambda state: None, expect_version=row.version)
        self.timers.start_sweeping()
        return len(rows)

    async def sweep(self) -> int:
        """Re-arm every clock overdue by more than the grace period; returns how many."""
        return await self.timers.sweep()

    async def stop(self) -> None:
        await self.timers.stop()

    async def settle(self) -> None:
        """Wait until every bot and clock task is done or waiting for the clock (for tests that
        move a manual clock); TimeoutError if they do not."""
        await self.tasks.settle()

    # -- rooms ---------------------------------------------------------------------------------

    async def create_practice(self, player: PlayerRow, options: PracticeOptions) -> Room:
        room = await self.new_room(
            player.id, RoomKind.PRACTICE, options.rules(), bot_level=options.bot_level.value
        )
        return await self.actor.start_match(room, options.rules())

    async def create_friend(self, player: PlayerRow, options: FriendOptions) -> Room:
        return await self.new_room(
            player.id,
            RoomKind.FRIEND,
            options.rules(),
            move_seconds=options.seconds_per_move,
            days_per_move=options.days_per_move,
            rated=options.rated,
            private=options.private,
        )

    async def create_challenge_room(
        self, code: str, seats: tuple[str, str], options: FriendOptions
    ) -> Room:
        """The friend room ``code`` an accepted challenge made, both seats taken (the
        challenger in seat 0), its match started: made and started once however often asked
        (a second accept, or the mend of a crash between the accept and the room, finds it)."""
        room = await self.store.room(code)
        if room is None:
            try:
                room = await self._seated_friend(code, seats, options)
            except Exception:
                room = await self.store.room(code)  # made meanwhile by the other request
                if room is None:
                    raise
        if room.match_id is None:
            room = await self.actor.start_match(room, rules_from_json(room.rules))
        return room

    async def _seated_friend(
        self, code: str, seats: tuple[str, str], options: FriendOptions
    ) -> Room:
        """A friend room ``code`` with both seats taken, without its match yet."""
        return await self.new_room(
            seats[0],
            RoomKind.FRIEND,
            options.rules(),
            seats=seats,
            code=code,
            move_seconds=options.seconds_per_move,
            days_per_move=options.days_per_move,
            rated=options.rated,
            private=options.private,
        )

    async def create_quicks(self, choose: ChoosePairs) -> list[Room]:
        """Rated rooms for the pairs quick match pairs, stored in one transaction with their
        matches, then each match started (its opening roll), all at once; the rooms, in the
        order of the pairs. ``choose`` runs inside that transaction and returns the pairs,
        ``(first, second, rules, move_seconds)`` (``first`` in seat 0): it may lock and read
        the queue first, so two processes never pair the same player. One transaction for all
        the pairs, not three each, so the last pair of a crowd does not wait for every other
        pair's commits (``docs/performance.md``)."""

        stored = await self.store.create_quick_rooms(choose, self._quick_room, self.clock.now())
        return list(
            await asyncio.gather(
                *(
                    self.actor.opened(room_value(row), match, events)
                    for row, match, events in stored
                )
            )
        )

    def _quick_room(self, first: str, second: str, rules: RuleSet, move_seconds: int) -> NewRoom:
        """A quick match's new room, with its match and first events (not stored yet)."""
        row = self._room_row(
            first,
            RoomKind.QUICK,
            rules,
            seats=(first, second),
            move_seconds=move_seconds,
            rated=True,
        )
        match, events = self.actor.new_match(room_value(row), rules)
        return row, match, events

    async def create_tournament_room(
        self,
        code: str,
        seats: tuple[str, str],
        rules: RuleSet,
        move_seconds: int,
        *,
        start: bool,
    ) -> Room:
        """The rated room ``code`` of a tournament's match (made once: the room as stored when
        it exists already); its match started at once when ``start``, else by
        :meth:`start_tournament_match` when both players have come."""
        room = await self.store.room(code)
        if room is None:
            try:
                room = await self.new_room(
                    seats[0],
                    RoomKind.TOURNAMENT,
                    rules,
                    seats=seats,
                    code=code,
                    move_seconds=move_seconds,
                    rated=True,
                )
            except Exception:
                # Two processes made it at once (a lease handed over): one row was stored.
                room = await self.store.room(code)
                if room is None:
                    raise
        if start and room.match_id is None:
            room = await self.actor.start_match(room, rules)
        return room

    async def arrive(self, code: str, player_id: str) -> Room:
        """A seated player opened the tournament table ``code``: remembered in the room's row
        (so every process knows it, and after a restart); when both have come, its match
        starts (its clocks with it). Any other room, or a match begun: nothing changes."""
        room = await self.room(code)
        seat = seat_of(room, player_id)
        if room.kind is not RoomKind.TOURNAMENT or room.match_id is not None or seat is None:
            return room
        came = await self.store.came(room.code, int(seat))
        if all(came):
            room = await self.start_tournament_match(room.code)
        return room

    async def start_tournament_match(self, code: str) -> Room:
        """Start the match of a tournament room made without it (once, however often asked)."""
        room = await self.store.room(code)
        if room is None or room.kind is not RoomKind.TOURNAMENT:
            raise RoomError("not_found", "There is no tournament room with that code")
        if room.match_id is None:
            room = await self.actor.start_match(room, rules_from_json(room.rules))
        return room

    async def new_room(
        self,
        creator_id: str,
        kind: RoomKind,
        rules: RuleSet,
        *,
        seats: tuple[str | None, str | None] | None = None,
        code: str | None = None,
        **extra: Any,
    ) -> Room:
        """Store a new room of ``kind``: ``seats`` taken (default: the creator in seat 0),
        ``code`` (default: a new one), ``extra``: its other columns."""
        row = self._room_row(creator_id, kind, rules, seats=seats, code=code, **extra)
        return await self.store.create_room(row)

    @staticmethod
    def _room_row(
        creator_id: str,
        kind: RoomKind,
        rules: RuleSet,
        *,
        seats: tuple[str | None, str | None] | None = None,
        code: str | None = None,
        **extra: Any,
    ) -> RoomRow:
        seat0, seat1 = seats or (creator_id, None)
        return RoomRow(
            code=code or new_room_code(),
            kind=kind.value,
            created_at=datetime.now(UTC),
            creator_id=creator_id,
            seat0_id=seat0,
            seat1_id=seat1,
            rules=rules_to_json(rules),
            **extra,
        )

    async def join(self, code: str, player: PlayerRow) -> Player | None:
        """Seat ``player`` in an empty seat of a friend room; their seat, or None to watch."""
        room = await self.room(code)
        if room.kind is RoomKind.FRIEND and room.seat1_id is None and room.seat0_id != player.id:
            shut = refused(player, Door.SEAT)
            if shut is not None:
                raise RoomError(shut.code, shut.message)
            await self.store.take_seat(room.code, 1, player.id)
            room = await self.room(code)
        if room.kind is RoomKind.FRIEND and room.seat1_id is not None and room.match_id is None:
            # Both seats are taken: start the match, unless another request (or another
            # process) already has. A crash between the two commits is mended here too.
            await self.actor.start_match(room, rules_from_json(room.rules))
        return seat_of(room, player.id)

    async def room(self, code: str) -> Room:
        """The room with that code (RoomError ``not_found`` if there is none)."""
        code = canonical_code(code)
        cached = self._rooms.get(code)
        if cached is not None:
            return cached
        room = await self.store.room(code)
        if room is None:
            raise RoomError("not_found", "There is no room with that code")
        if room.match_id is not None:
            # Once its match has started a room never changes (its seats are taken and it
            # holds one match), so every process may keep it.
            self._rooms[code] = room
            while len(self._rooms) > ROOM_CACHE:
                self._rooms.pop(next(iter(self._rooms)))
        return room

    async def start_match(self, room: Room, rules: RuleSet) -> Room:
        """Start the match of a room stored with both seats taken (a rematch)."""
        return await self.actor.start_match(room, rules)

    # -- correspondence ---------------------------------------------------------------------------

    async def _manual(self, room: Room) -> frozenset[Player]:
        """The seats of a correspondence room whose players roll and play a single legal play
        themselves (auto-roll off, the default)."""
        seats = [(Player.ZERO, room.seat0_id), (Player.ONE, room.seat1_id)]
        ids = [pid for _, pid in seats if pid is not None]
        on = await self.store.db.read(partial(auto_rolls, ids=ids))
        return frozenset(p for p, pid in seats if pid is not None and not on.get(pid, False))

    async def auto_roll(self, player_id: str) -> bool:
        on = await self.store.db.read(partial(auto_rolls, ids=[player_id]))
        return on.get(player_id, False)

    async def set_auto_roll(self, player_id: str, on: bool) -> None:
        await self.store.db.write(partial(set_auto_roll, player_id=player_id, on=on))

    async def your_games(self, player_id: str) -> list[YourGame]:
        """The player's unfinished matches, the ones waiting on them first by time left."""
        return await your_games(self.store.db, player_id, self.clock.now())

    async def vacation(self, player_id: str) -> Vacation:
        return await vacation(
            self.store.db, player_id, self.clock.now(), self.settings.vacation_days
        )

    async def take_vacation(self, player_id: str, days: int) -> Vacation:
        """Book ``days`` of vacation from now (RoomError ``vacation_<why>`` when the bank or a
        vacation already running forbids it), then re-arm the player's correspondence clocks
        here so they stop at once."""
        now, bank = self.clock.now(), self.settings.vacation_days
        try:
            await self.store.db.write(
                partial(take_vacation, player_id=player_id, now=now, days=days, bank=bank)
            )
        except VacationError as refused:
            raise RoomError(f"vacation_{refused.code}", str(refused)) from None
        for row in await self.store.db.read(partial(unfinished, player_id=player_id)):
            if row.days_per_move is not None:
                live = await self.actor.load(row.match_id, fresh=True)
                seat = decider(live.state)
                if seat is not None and player_at(live.room, seat) == player_id:
                    # Moved before the answer, so 'Your games' read right after shows the
                    # stopped clock (left to the clock's task, it moved a moment later).
                    live = await self.timers.with_vacations(live, player_id) or live
                self.timers.schedule(live)
        return await self.vacation(player_id)

    # -- acting and reading ----------------------------------------------------------------------

    async def submit(
        self, code: str, player_id: str, make: Callable[[Player], Action], version: int | None
    ) -> None:
        """A seated player's intent; raises RoomError when it is refused."""
        started, outcome = time.perf_counter(), "accepted"
        try:
            await self.actor.submit(await self.room(code), player_id, make, version)
        except RoomError as refused:
            outcome = refused.code
            raise
        finally:
            self.on_action(outcome, time.perf_counter() - started)

    async def live(self, match_id: str) -> Live:
        """The match as stored now (another instance may have written since this one did)."""
        return await self.actor.load(match_id, fresh=True)

    def heard(self, note: EventsNote) -> None:
        """A connection of this process heard ``note``: when it is newer than the match this
        process holds (another process stored it), the match is taken up from it
        (:meth:`Actor.learn`), with the state decoded once for the connections' tables too.
        Players on two processes otherwise cost a read of the store every other action."""
        known = self.actor.known_state(note["match"])
        last = note["from"] + len(note["events"]) - 1
        if known is not None and known.version < last:
            self.actor.learn(note, self.views.state(note["match"], last, note["state"]))
