"""The one writer of a match: apply an action and the automatic steps, store, then publish.

Every change to a match goes through :meth:`Actor.act`: under the match's lock it checks the
action with :func:`bidak.match.apply`, applies the automatic steps of rules.md 10 (a roll when
doubling is not possible, a forced play, the opening roll), stores the events and the new state
in one transaction, and only then publishes them. Bots, auto-play and clock expiries act through
the same method, each remembering the match version it decided on, so a decision that came too
late is dropped instead of applied to a different position.

Another server process may write to the same match (players on two instances): the store's
version check makes exactly one writer win; the loser reloads and tries again.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import orjson

from bidak.errors import BidakError
from bidak.match import (
    Action,
    Event,
    ForfeitMatch,
    MatchState,
    Phase,
    Player,
    ResignGame,
    RuleSet,
    SetAutoplay,
    advance,
    apply,
    event_to_json,
    rules_to_json,
    start_match,
    state_to_json,
)
from bidak.server.play.dice import FairDice, seed_hash
from bidak.server.play.live import Live, deadline_json, live_from_row
from bidak.server.play.queries import Append, Conflict, RoomStore
from bidak.server.play.rated_queries import RatedEnd
from bidak.server.play.room import Room, RoomError, RoomKind, room_channel, seat_of
from bidak.server.play.tables import MatchRow
from bidak.server.play.wire.notes import EventsNote, events_note
from bidak.server.shared.bus import Bus
from bidak.server.shared.clocks import Clock
from bidak.server.shared.store.db import StorageError
from bidak.server.shared.store.rows import new_id

log = logging.getLogger(__name__)

RETRY_SECONDS = 0.5
RETRIES = 120
"""How often, and how many times, a bot's or a clock's action is tried again while the
database fails (a minute in all)."""


Deadline = Callable[[Room, MatchState, float], tuple[float | None, int | None]]
"""The deadline (and the version it is for) of the decision pending in a state reached at a
time (:func:`bidak.server.play.timeouts.deadline`)."""

POSITION_FREE = (ForfeitMatch, ResignGame, SetAutoplay)
"""Intents that do not depend on the position: never refused as stale (a player who resigns
while the bot plays means it all the same); the rules still refuse them when not allowed."""


class Actor:
    """Writes matches: ``room`` finds a match's room, ``deadline`` sets its clock, ``stored``
    hears of every state this process stored (to arm what acts next)."""

    def __init__(
        self,
        store: RoomStore,
        bus: Bus,
        clock: Clock,
        seeds: Callable[[], str],
        room: Callable[[str], Awaitable[Room]],
        deadline: Deadline,
        stored: Callable[[Live], None],
        manual: Callable[[Room], Awaitable[frozenset[Player]]] | None = None,
    ) -> None:
        self.store, self.bus, self.clock = store, bus, clock
        self._seeds, self._room, self._deadline, self._stored = seeds, room, deadline, stored
        self._manual = manual  # seats that roll and play a forced play themselves (auto-roll off)
        self._live: dict[str, Live] = {}
        # One lock per match being acted on; it goes away with its last user, so a server
        # that runs for months does not keep one for every match it ever served.
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._unsure: dict[str, Append] = {}
        """Appends whose commit failed in a way that leaves it unknown whether they were
        stored (the connection died during the commit), not yet found out."""

    @property
    def live_matches(self) -> int:
        """Unfinished matches this process holds (is playing or was last)."""
        return len(self._live)

    def known_state(self, match_id: str) -> MatchState | None:
        live = self._live.get(match_id)
        return None if live is None else live.state

    def remember(self, live: Live) -> None:
        self._live[live.match_id] = live

    async def start_match(self, room: Room, rules: RuleSet) -> Room:
        """Start the match of a room stored with both seats taken; the room with its match (or
        as it is when someone else started it meanwhile)."""
        row, stored = self.new_match(room, rules)
        try:
            await self.store.create_match(room.code, row, stored, self.clock.now())
        except Conflict:
            return room  # the room's match was started by someone else meanwhile
        return await self.opened(room, row, stored)

    def new_match(self, room: Room, rules: RuleSet) -> tuple[MatchRow, list[dict[str, Any]]]:
        """A new match for ``room``, not stored yet: its row and its first events (as JSON)."""
        seed = self._seeds()
        state, events = start_match(rules)
        stored = [event_to_json(e) for e in events]
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
        return row, stored

    async def opened(self, room: Room, row: MatchRow, stored: list[dict[str, Any]]) -> Room:
        """After :meth:`new_match`'s row was stored as the room's match: hold it, tell the
        room, throw the opening roll; the room with its match."""
        room = replace(room, match_id=row.id)
        live = live_from_row(row, room)
        self._live[row.id] = live
        await self.publish(live, stored, 1, row.state)
        # The opening roll is automatic: throw it through the ordinary path.
        await self.act(row.id, None, lambda state: None, expect_version=row.version)
        return room

    async def submit(
        self, room: Room, player_id: str, make: Callable[[Player], Action], version: int | None
    ) -> None:
        """A seated player's intent; raises RoomError when it is refused."""
        seat = seat_of(room, player_id)
        if seat is None:
            raise RoomError("not_seated", "Only the players at this table can act")
        if room.match_id is None:
            raise RoomError("not_started", "The match starts when your opponent arrives")
        action = make(seat)
        if isinstance(action, POSITION_FREE):
            version = None  # the table moving on meanwhile changes nothing about these
        await self.act(room.match_id, seat, lambda state: action, expect_version=version)

    def learn(self, note: EventsNote, state: MatchState) -> None:
        """Take up what another process stored and published (``note``, whose ``state`` is
        decoded), for a match this one holds at an older version: its next action here is
        judged on it without a read of the store. The store's version check still decides
        whose append counts; the dice go on from the count the note carries."""
        live = self._live.get(note["match"])
        drawn = note.get("drawn")  # a process of an older version does not send it
        if live is None or drawn is None or state.version <= live.state.version:
            return
        if state.phase is Phase.MATCH_OVER:
            self._live.pop(note["match"], None)  # the store keeps it; reads reload it
            return
        deadline = note["deadline"]  # None: no clock runs on this version
        self._live[note["match"]] = replace(
            live,
            state=state,
            dice_drawn=drawn,
            deadline=None if deadline is None else deadline["at"],
            deadline_version=None if deadline is None else state.version,
        )

    async def load(self, match_id: str, fresh: bool = False) -> Live:
        """The match as this process knows it, or (``fresh``, or unknown here) as stored now."""
        live = self._live.get(match_id)
        if live is None or fresh:
            row = await self.store.match(match_id)
            if row is None:
                raise RoomError("not_found", "There is no such match")
            room = await self._room(row.room_code)
            loaded = live_from_row(row, room)
            if live is None or loaded.state.version >= live.state.version:
                self._live[match_id] = loaded  # never older than what this process wrote
            live = loaded
        return live

    async def act(
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
            if match_id in self._unsure:
                await self._find_out(self._unsure[match_id])
                fresh = True
            for _attempt in range(3):
                live = await self.load(match_id, fresh)
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
                manual = frozenset[Player]()
                if self._manual is not None and live.room.correspondence:
                    manual = await self._manual(live.room)
                state, more = advance(state, dice, manual)  # the steps nobody chooses (rules.md 10)
                events.extend(more)
                if not events:
                    return
                # One reading of the clock for the events' time and the deadline: a
                # correspondence clock works the deadline out again from the events' time
                # (counting vacations), and a deadline that differs by a microsecond is stored
                # again on every move.
                now = self.clock.now()
                deadline, deadline_version = self._deadline(live.room, state, now)
                stored = state_to_json(state)
                over = state.phase is Phase.MATCH_OVER
                change = Append(
                    match_id=match_id,
                    expected_version=live.state.version,
                    events=[event_to_json(e) for e in events],
                    state=stored,
                    dice_drawn=dice.drawn,
                    deadline=deadline,
                    deadline_version=deadline_version,
                    finished=over,
                    at=now,
                    rated=rated_end(live.room, match_id, state),
                    # A live match's move may wait for the next checkpoint to reach the disk;
                    # its end (the result, the ratings) and a correspondence move, whose
                    # opponent is told by push and e-mail, may not.
                    synced=over or live.room.correspondence,
                )
                try:
                    await self.store.append(change)
                except Conflict:
                    fresh = True
                    continue
                except StorageError as failed:
                    # The database is overloaded or went away. The append was rolled back,
                    # or, if the connection died during the commit, perhaps stored: the
                    # store says which. Not stored: refuse the action; the player may send
                    # it again, and it is stored once.
                    self._unsure[match_id] = change
                    if not await self._find_out(change):
                        log.warning("storage failed; refused an action in %s: %s", match_id, failed)
                        raise RoomError("busy", "The server is busy; try again") from None
                    return
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
                    await self.publish(live, change.events, before + 1, stored)
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
                if live.finished:
                    # The store keeps it; reads reload it.
                    self._live.pop(match_id, None)
                self._stored(live)
                return
            raise RoomError("busy", "The table is busy; try again")

    async def act_for_nobody(
        self,
        match_id: str,
        choose: Callable[[MatchState], Action | None],
        *,
        expect_version: int,
        sleep_until: Callable[[float], Awaitable[None]],
    ) -> None:
        """:meth:`act` for a bot, auto-play or a clock, which nobody will send again: while
        the database fails, try again every :data:`RETRY_SECONDS` (a bot's turn has no
        deadline the sweeper would find)."""
        for _attempt in range(RETRIES):
            try:
                await self.act(match_id, None, choose, expect_version=expect_version)
                return
            except StorageError as failed:
                log.warning("storage failed; acting in %s again soon: %s", match_id, failed)
            except RoomError as refused:
                if refused.code != "busy":
                    raise
            await sleep_until(self.clock.now() + RETRY_SECONDS)
        log.error("gave up acting in %s: the database kept failing", match_id)

    async def _find_out(self, change: Append) -> bool:
        """Whether ``change``, whose commit failed, was stored after all: if so, what it
        stored (and whatever followed) is published and what acts next is armed. Raises
        nothing: while the store cannot say, ``change`` stays unsure and the next action on
        its match asks again."""
        match_id = change.match_id
        try:
            stored = await self.store.events(match_id, after=change.expected_version)
            if stored and _same_json(
                [r.payload for r in stored[: len(change.events)]], change.events
            ):
                live = await self.load(match_id, fresh=True)
            else:
                self._unsure.pop(match_id, None)
                return False
        except (StorageError, RoomError):
            return False
        self._unsure.pop(match_id, None)
        log.warning(
            "match %s versions %d-%d were stored although the commit failed",
            match_id,
            change.expected_version + 1,
            live.state.version,
        )
        events = [r.payload for r in stored if r.version <= live.state.version]
        try:
            await self.publish(live, events, change.expected_version + 1, state_to_json(live.state))
        except Exception as unpublished:  # the same as after any append: told later
            log.warning("match %s: a found-out append not published: %r", match_id, unpublished)
        if live.finished:
            self._live.pop(match_id, None)
        self._stored(live)
        return True

    async def publish(
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
            drawn=live.dice_drawn,
        )
        await self.bus.publish(room_channel(live.room.code), message)


def _same_json(stored: list[Any], written: list[dict[str, Any]]) -> bool:
    """Whether events read back from the store are the ones written (JSON types and key order
    as the database keeps them: tuples read back as lists, JSONB sorts keys)."""
    same: bool = orjson.loads(orjson.dumps(stored)) == orjson.loads(orjson.dumps(written))
    return same


def rated_end(room: Room, match_id: str, state: MatchState) -> RatedEnd | None:
    """Who won and lost, when ``state`` ends a rated match between two different people (a
    forfeit and a third strike are losses like any other); None otherwise."""
    if not room.rated or state.phase is not Phase.MATCH_OVER or state.winner is None:
        return None
    seats = (room.seat0_id, room.seat1_id)
    winner, loser = seats[int(state.winner)], seats[int(state.winner.opponent)]
    if winner is None or loser is None or winner == loser or room.kind is RoomKind.PRACTICE:
        return None
    return RatedEnd(match_id, winner, loser, state.rules.length, room.correspondence)
