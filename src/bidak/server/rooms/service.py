"""The rooms service: one writer per match, everything stored before anyone sees it.

Every change to a match goes through :meth:`RoomService._act`: under the match's lock it checks
the action with :func:`bidak.match.apply`, applies the automatic steps of rules.md 10 (a roll
when doubling is not possible, a forced play, the opening roll), stores the events and the new
state in one transaction, and only then publishes them. Bots, auto-play and clock expiries act
through the same method, each remembering the match version it decided on, so a decision that
came too late is dropped instead of applied to a different position.

Another server process may write to the same match (players on two instances): the store's
version check makes exactly one writer win; the loser reloads and tries again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import weakref
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.exc import OperationalError

from bidak.engine.bots import Bot, make_bot, quick_bot
from bidak.engine.levels import Level
from bidak.engine.workers import BotPool
from bidak.errors import BidakError
from bidak.match import (
    Action,
    Event,
    MatchState,
    Phase,
    Player,
    RuleSet,
    Timeout,
    apply,
    automatic_action,
    decider,
    event_to_json,
    fixed_fallback,
    rules_from_json,
    rules_to_json,
    start_match,
    state_from_json,
    state_to_json,
)
from bidak.server.bus import Bus
from bidak.server.clocks import Clock
from bidak.server.dice import FairDice, new_seed, seed_hash
from bidak.server.rooms.options import FriendOptions, PracticeOptions
from bidak.server.settings import Settings
from bidak.server.store.models import MatchRow, PlayerRow, RoomRow
from bidak.server.store.rated import RatedEnd
from bidak.server.store.repo import Append, Conflict, Store, new_id
from bidak.server.views import Views
from bidak.server.wire.notes import events_note
from bidak.server.wire.table import Deadline

log = logging.getLogger(__name__)

AUTOPLAY_LEVEL = Level.NORMAL
ROOM_CACHE = 10_000
"""Rooms kept in memory per process (the oldest are dropped first)."""


class RoomError(Exception):
    """A request the server refuses; ``code`` is machine-readable, the message is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class Live:
    """A match being played, as this process last stored or read it."""

    match_id: str
    room: RoomRow
    state: MatchState
    dice_drawn: int
    seed: str
    seed_hash: str
    deadline: float | None
    deadline_version: int | None

    @property
    def finished(self) -> bool:
        return self.state.phase is Phase.MATCH_OVER


def room_channel(code: str) -> str:
    return f"bidak:room:{code}"


def new_room_code() -> str:
    """An invite code: 128 random bits, URL-safe; codes cannot be guessed or enumerated."""
    return secrets.token_urlsafe(16)


class RoomService:
    def __init__(
        self,
        store: Store,
        bus: Bus,
        clock: Clock,
        settings: Settings,
        pool: BotPool,
        seeds: Callable[[], str] = new_seed,
    ) -> None:
        self.store, self.bus, self.clock, self.settings, self.pool = (
            store,
            bus,
            clock,
            settings,
            pool,
        )
        self._live: dict[str, Live] = {}
        # One lock per match being acted on; it goes away with its last user, so a server
        # that runs for months does not keep one for every match it ever served.
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._bots: dict[str, Bot] = {}
        self._closing = False
        self._seeds = seeds
        self._busy = 0
        self._rooms: dict[str, RoomRow] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self.views = Views(self._known_state)

    def _known_state(self, match_id: str) -> MatchState | None:
        live = self._live.get(match_id)
        return None if live is None else live.state

    # -- life cycle --------------------------------------------------------------------------

    async def start(self) -> int:
        """Re-arm every unfinished match's clock and bot after a (re)start; returns how many."""
        rows = await self.store.live_matches()
        for row in rows:
            room = await self.store.room(row.room_code)
            if room is None:  # pragma: no cover - rooms are never deleted
                continue
            live = self._from_row(row, room)
            self._live[row.id] = live
            self._schedule(live)
            if live.state.phase is Phase.OPENING:
                # Killed between storing a new match and its opening roll: nobody decides
                # the opening, so throw it now or the match waits forever.
                await self._act(row.id, None, lambda state: None, expect_version=row.version)
        self._sweeper = asyncio.create_task(self._sweep_forever())
        return len(rows)

    async def _sweep_forever(self) -> None:
        """Now and then, act on clocks that ran out with nobody to act on them.

        Each process arms the clocks of the matches it writes to; if that process died, another
        one finds the overdue deadline in the store here. Acting twice is harmless: the store's
        version check lets only one action through.
        """
        interval = self.settings.sweep_seconds
        self._busy += 1  # counted as busy except while it waits for the clock (see settle)
        try:
            while not self._closing:
                await self._sleep_until(self.clock.now() + interval)
                try:
                    await self.sweep()
                except Exception:  # pragma: no cover - a failed sweep must not stop later ones
                    log.exception("sweeping overdue clocks failed")
        finally:
            self._busy -= 1

    async def sweep(self) -> int:
        """Re-arm every clock overdue by more than the grace period; returns how many."""
        grace = self.settings.sweep_seconds
        armed = 0
        for row in await self.store.overdue(self.clock.now() - grace):
            task = self._tasks.get(row.id)
            if task is not None and not task.done():
                continue
            live = await self._load(row.id, fresh=True)
            self._schedule(live)
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

    # -- rooms ---------------------------------------------------------------------------------

    async def create_practice(self, player: PlayerRow, options: PracticeOptions) -> RoomRow:
        room = await self.new_room(
            player.id, "practice", options.rules(), bot_level=options.bot_level.value
        )
        await self._start_match(room, options.rules())
        return room

    async def create_friend(self, player: PlayerRow, options: FriendOptions) -> RoomRow:
        return await self.new_room(
            player.id,
            "friend",
            options.rules(),
            move_seconds=options.move_seconds,
            rated=options.rated,
            private=options.private,
        )

    async def create_quick(
        self, first: str, second: str, rules: RuleSet, move_seconds: int
    ) -> RoomRow:
        """A rated room for two players a quick match paired (``first`` in seat 0), its match
        started at once."""
        room = await self.new_room(
            first, "quick", rules, seats=(first, second), move_seconds=move_seconds, rated=True
        )
        await self._start_match(room, rules)
        return room

    async def new_room(
        self,
        creator_id: str,
        kind: str,
        rules: RuleSet,
        *,
        seats: tuple[str | None, str | None] | None = None,
        code: str | None = None,
        **extra: Any,
    ) -> RoomRow:
        """Store a new room of ``kind``: ``seats`` taken (default: the creator in seat 0),
        ``code`` (default: a new one), ``extra``: its other columns."""
        seat0, seat1 = seats or (creator_id, None)
        room = RoomRow(
            code=code or new_room_code(),
            kind=kind,
            created_at=datetime.now(UTC),
            creator_id=creator_id,
            seat0_id=seat0,
            seat1_id=seat1,
            rules=rules_to_json(rules),
            **extra,
        )
        await self.store.create_room(room)
        return room

    async def join(self, code: str, player: PlayerRow) -> Player | None:
        """Seat ``player`` in an empty seat of a friend room; their seat, or None to watch."""
        room = await self._room(code)
        if room.kind == "friend" and room.seat1_id is None and room.seat0_id != player.id:
            await self.store.take_seat(code, 1, player.id)
            room = await self._room(code)
        if room.kind == "friend" and room.seat1_id is not None and room.match_id is None:
            # Both seats are taken: start the match, unless another request (or another
            # process) already has. A crash between the two commits is mended here too.
            await self._start_match(room, rules_from_json(room.rules))
        return seat_of(room, player.id)

    async def room(self, code: str) -> RoomRow:
        return await self._room(code)

    async def _room(self, code: str) -> RoomRow:
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

    async def start_match(self, room: RoomRow, rules: RuleSet) -> None:
        """Start the match of a room stored with both seats taken (a rematch)."""
        await self._start_match(room, rules)

    async def _start_match(self, room: RoomRow, rules: RuleSet) -> None:
        seed = self._seeds()
        state, events = start_match(rules)
        stored = [event_to_json(e) for e in events]
        now = self.clock.now()
        row = MatchRow(
            id=new_id(),
            room_code=room.code,
            rules=rules_to_json(rules),
            state=state_to_json(state),
            version=state.version,
            seed=seed,
            seed_hash=seed_hash(seed),
            dice_drawn=0,
            deadline=None,
            deadline_version=None,
            finished=False,
            created_at=datetime.now(UTC),
            updated_at=datetime.now(UTC),
        )
        try:
            await self.store.create_match(room.code, row, stored, now)
        except Conflict:
            return  # the room's match was started by someone else meanwhile
        room.match_id = row.id
        live = self._from_row(row, room)
        self._live[row.id] = live
        await self._publish(live, stored, 1, row.state)
        # The opening roll is automatic: throw it through the ordinary path.
        await self._act(row.id, None, lambda state: None, expect_version=state.version)

    # -- acting --------------------------------------------------------------------------------

    async def submit(
        self, code: str, player_id: str, make: Callable[[Player], Action], version: int | None
    ) -> None:
        """A seated player's intent; raises RoomError when it is refused."""
        room = await self._room(code)
        seat = seat_of(room, player_id)
        if seat is None:
            raise RoomError("not_seated", "Only the players at this table can act")
        if room.match_id is None:
            raise RoomError("not_started", "The match starts when your opponent arrives")
        action = make(seat)
        await self._act(room.match_id, seat, lambda state: action, expect_version=version)

    async def _load(self, match_id: str, fresh: bool = False) -> Live:
        live = self._live.get(match_id)
        if live is None or fresh:
            row = await self.store.match(match_id)
            if row is None:
                raise RoomError("not_found", "There is no such match")
            room = await self._room(row.room_code)
            loaded = self._from_row(row, room)
            if live is None or loaded.state.version >= live.state.version:
                self._live[match_id] = loaded  # never older than what this process wrote
            live = loaded
        return live

    def _from_row(self, row: MatchRow, room: RoomRow) -> Live:
        return Live(
            row.id,
            room,
            state_from_json(row.state),
            row.dice_drawn,
            row.seed,
            row.seed_hash,
            row.deadline,
            row.deadline_version,
        )

    async def _act(
        self,
        match_id: str,
        actor: Player | None,
        choose: Callable[[MatchState], Action | None],
        *,
        expect_version: int | None,
    ) -> None:
        """Apply one action (or only the automatic steps when ``choose`` gives None)."""
        lock = self._locks.get(match_id)
        if lock is None:
            lock = self._locks[match_id] = asyncio.Lock()
        async with lock:
            fresh = False
            for _attempt in range(3):
                live = await self._load(match_id, fresh)
                state = live.state
                if expect_version is not None and state.version != expect_version:
                    if not fresh:  # another instance may have moved on: ask the store first
                        fresh = True
                        continue
                    if actor is None:
                        return  # a bot, clock or automatic step decided on an older table
                    raise RoomError(
                        "stale", "The table changed before your action arrived; look again"
                    )
                if state.phase is Phase.MATCH_OVER:
                    raise RoomError("match_over", "The match is over")
                dice = FairDice(live.seed, live.dice_drawn)
                events: list[Event] = []
                action = choose(state)
                if action is not None:
                    try:
                        state, first = apply(state, action, dice)
                    except BidakError as refused:
                        if not fresh:  # judged on a table another instance may have changed
                            fresh = True
                            continue
                        raise RoomError("illegal", str(refused)) from None
                    events.extend(first)
                state, more = _automatic_steps(state, dice)
                events.extend(more)
                if not events:
                    return
                deadline, deadline_version = self._deadline(live.room, state)
                stored = state_to_json(state)
                change = Append(
                    match_id=match_id,
                    expected_version=live.state.version,
                    events=[event_to_json(e) for e in events],
                    state=stored,
                    dice_drawn=dice.drawn,
                    deadline=deadline,
                    deadline_version=deadline_version,
                    finished=state.phase is Phase.MATCH_OVER,
                    at=self.clock.now(),
                    rated=rated_end(live.room, match_id, state),
                )
                try:
                    await self.store.append(change)
                except Conflict:
                    fresh = True
                    continue
                except OperationalError:
                    # The database is overloaded (SQLite's lock wait ran out): nothing was
                    # stored, so refuse the action and let the player send it again.
                    log.warning("database busy; refused an action in %s", match_id)
                    raise RoomError("busy", "The server is busy; try again") from None
                before = live.state.version
                live = replace(
                    live,
                    state=state,
                    dice_drawn=dice.drawn,
                    deadline=deadline,
                    deadline_version=deadline_version,
                )
                self._live[match_id] = live
                try:
                    await self._publish(live, change.events, before + 1, stored)
                except Exception as unpublished:
                    # Stored, not told: each connection gets these events with the next ones
                    # (its forwarder fills the gap from the store) or when it reconnects.
                    log.warning(
                        "match %s versions %d-%d stored but not published: %r",
                        match_id,
                        before + 1,
                        state.version,
                        unpublished,
                    )
                self._schedule(live)
                if live.finished:
                    self._forget(match_id)
                return
            raise RoomError("busy", "The table is busy; try again")

    def _forget(self, match_id: str) -> None:
        """Drop a finished match from the caches (the store keeps it; reads reload it)."""
        self._live.pop(match_id, None)
        for player in Player:
            self._bots.pop(f"{match_id}:{int(player)}", None)

    def _deadline(self, room: RoomRow, state: MatchState) -> tuple[float | None, int | None]:
        """A deadline for a person's pending decision in a timed room (rules.md 9)."""
        who = decider(state)
        if (
            room.move_seconds is None
            or who is None
            or state.phase is Phase.MATCH_OVER
            or state.autoplay[who]
            or is_bot_seat(room, who)
        ):
            return None, None
        return self.clock.now() + room.move_seconds, state.version

    # -- bots, auto-play and clocks ------------------------------------------------------------

    def _schedule(self, live: Live) -> None:
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
            task = self._bot_turn(live, who)
        elif live.deadline is not None and live.deadline_version == live.state.version:
            task = self._clock(live, who, live.deadline)
        else:
            return
        self._tasks[live.match_id] = asyncio.create_task(self._tracked(task))

    async def _tracked(self, work: Coroutine[Any, Any, None]) -> None:
        """Count a bot or clock task as busy except while it waits for the clock."""
        self._busy += 1
        try:
            await work
        finally:
            self._busy -= 1

    async def _sleep_until(self, when: float) -> None:
        self._busy -= 1
        try:
            await self.clock.sleep_until(when)
        finally:
            self._busy += 1

    def _bot_for(self, live: Live, player: Player) -> Bot:
        key = f"{live.match_id}:{int(player)}"
        bot = self._bots.get(key)
        if bot is None:
            level = (
                Level.parse(live.room.bot_level)
                if is_bot_seat(live.room, player) and live.room.bot_level
                else AUTOPLAY_LEVEL
            )
            bot = self._bots[key] = make_bot(level, f"{live.seed}:{int(player)}")
        return bot

    async def _bot_turn(self, live: Live, player: Player) -> None:
        version = live.state.version
        await self._sleep_until(self.clock.now() + self.settings.bot_delay)
        # Auto-play stands in for a person: where the rules fix what it does (a roll, never a
        # double; a rejected resignation) it does that. A bot seat plays as itself.
        action: Action | None = (
            None if is_bot_seat(live.room, player) else fixed_fallback(live.state, player)
        )
        if action is None:
            action = await self.pool.decide(
                self._bot_for(live, player), live.state, player, timeout=self.settings.bot_budget
            )
        try:
            await self._act(live.match_id, None, lambda state: action, expect_version=version)
        except RoomError as refused:  # pragma: no cover - bots answer with legal actions
            log.error("bot action refused in %s: %s", live.match_id, refused)

    async def _clock(self, live: Live, player: Player, deadline: float) -> None:
        version = live.state.version
        await self._sleep_until(deadline)
        # A roll (never a double) or a rejected resignation where the rules fix the fallback;
        # the quick bot's play or answer to a double otherwise (rules.md 9).
        fixed = fixed_fallback(live.state, player)
        fallback: Action = (
            fixed
            if fixed is not None
            else await self.pool.decide(
                quick_bot(), live.state, player, timeout=self.settings.bot_budget
            )
        )
        try:
            await self._act(
                live.match_id,
                None,
                lambda state: Timeout(player, fallback),
                expect_version=version,
            )
        except RoomError as refused:  # pragma: no cover - the fallback is a legal action
            log.error("timeout refused in %s: %s", live.match_id, refused)

    async def settle(self) -> None:
        """Wait until every bot and clock task is done or waiting for the clock (for tests that
        move a manual clock)."""
        for _ in range(4000):
            if self._busy == 0:
                return
            await asyncio.sleep(0.005)

    # -- views -----------------------------------------------------------------------------------

    async def live(self, match_id: str) -> Live:
        """The match as stored now (another instance may have written since this one did)."""
        return await self._load(match_id, fresh=True)

    async def _publish(
        self,
        live: Live,
        events: list[dict[str, Any]],
        from_version: int,
        state: dict[str, Any],
    ) -> None:
        """Tell every connection at the room (in every process) what was stored: the events
        (as JSON) from ``from_version`` on and ``state``, the JSON of the state after them."""
        message = events_note(
            room=live.room.code,
            match=live.match_id,
            first=from_version,
            events=events,
            state=state,
            deadline=deadline_json(live),
            seed=live.seed if live.finished else None,
        )
        await self.bus.publish(room_channel(live.room.code), message)


def _automatic_steps(state: MatchState, dice: FairDice) -> tuple[MatchState, list[Event]]:
    """The steps nobody chooses (rules.md 10), applied until someone has a real decision."""
    events: list[Event] = []
    while state.phase is not Phase.MATCH_OVER:
        action = automatic_action(state)
        who = decider(state)
        if action is None or (who is not None and action.player is not who):
            break
        state, more = apply(state, action, dice)
        events.extend(more)
    return state, events


def rated_end(room: RoomRow, match_id: str, state: MatchState) -> RatedEnd | None:
    """Who won and lost, when ``state`` ends a rated match between two different people (a
    forfeit and a third strike are losses like any other); None otherwise."""
    if not room.rated or state.phase is not Phase.MATCH_OVER or state.winner is None:
        return None
    seats = (room.seat0_id, room.seat1_id)
    winner, loser = seats[int(state.winner)], seats[int(state.winner.opponent)]
    if winner is None or loser is None or winner == loser or room.kind == "practice":
        return None
    return RatedEnd(match_id, winner, loser, state.rules.length)


def seat_of(room: RoomRow, player_id: str) -> Player | None:
    if room.seat0_id == player_id:
        return Player.ZERO
    if room.seat1_id == player_id:
        return Player.ONE
    return None


def is_bot_seat(room: RoomRow, player: Player) -> bool:
    return room.kind == "practice" and player is Player.ONE


def deadline_json(live: Live) -> Deadline | None:
    if live.deadline is None or live.deadline_version != live.state.version:
        return None
    who = decider(live.state)
    return {
        "player": None if who is None else int(who),
        "at": live.deadline,
        "seconds": live.room.move_seconds,
    }
