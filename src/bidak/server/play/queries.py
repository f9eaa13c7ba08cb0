"""The rooms' and matches' persistence: every read and write of rooms, matches and their event
logs, each in one short transaction.

:class:`RoomStore` is what the rooms service (and the routes that show rooms and matches) use;
``bidak.server.play.storage.Store`` extends it, so the server holds one store object. Rooms are
handed out as frozen :class:`~bidak.server.play.room.Room` values (:func:`room_value`); matches
and events as their rows. The hot path is :meth:`RoomStore.append`: appends that arrive together
share one transaction (:mod:`bidak.server.shared.store.batches`), written with Core statements built
once, and on SQLite through the driver itself (:mod:`.append_queries`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from functools import partial
from typing import Any, cast

from sqlalchemy import Table, bindparam, insert, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from bidak.match import RuleSet
from bidak.server.play.append_queries import (
    Append,
    Conflict,
    append_all,
    append_postgres,
    one_statement_fits,
)
from bidak.server.play.rated_queries import unrated_reason
from bidak.server.play.room import Room, RoomKind
from bidak.server.play.tables import EventRow, MatchRow, RatedMatchRow, RoomRow
from bidak.server.shared.store.batches import Batcher, WriteResult
from bidak.server.shared.store.db import Database, StorageError
from bidak.server.shared.store.rows import insert_rows, is_key

__all__ = ["Append", "ChoosePairs", "Conflict", "NewRoom", "RoomStore", "room_value"]
"""Append and Conflict are the append's (:mod:`.append_queries`), importable from here too."""

ChoosePairs = Callable[[Connection], list[tuple[str, str, RuleSet, int]]]
"""Inside a transaction, the quick match pairs to start: ``(first, second, rules,
move_seconds)``, ``first`` in seat 0 (:meth:`RoomService.create_quicks`)."""

NewRoom = tuple[RoomRow, MatchRow, list[dict[str, Any]]]
"""A room not stored yet, with its match and first events (as JSON)."""


def room_value(row: RoomRow) -> Room:
    """The immutable value of a stored room (its rematch offer is read by
    :mod:`bidak.server.play.rematch` from the row itself)."""
    return Room(
        code=row.code,
        kind=RoomKind(row.kind),
        created_at=row.created_at,
        creator_id=row.creator_id,
        seat0_id=row.seat0_id,
        seat1_id=row.seat1_id,
        bot_level=row.bot_level,
        move_seconds=row.move_seconds,
        rules=dict(row.rules),
        match_id=row.match_id,
        rated=bool(row.rated),
        private=bool(row.private),
        days_per_move=row.days_per_move,
    )


class RoomStore:
    """Rooms, matches and event logs in the database ``db``."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._appends: Batcher[Append] = Batcher(self._append_batch)

    # -- rooms ------------------------------------------------------------------------------------

    async def create_room(self, room: RoomRow) -> Room:
        """Store a new room (its code must be new: a taken code raises ``IntegrityError``);
        its value."""
        await self.db.write(partial(insert_rows, rows=[room]))
        return room_value(room)

    async def room(self, code: str) -> Room | None:
        """The room of ``code`` as it is stored now, or None (also for what cannot be a code)."""
        if not is_key(code):
            return None
        row = await self.db.rows(lambda session: session.get(RoomRow, code))
        return None if row is None else room_value(row)

    async def take_seat(self, code: str, seat: int, player_id: str) -> bool:
        """Seat ``player_id`` if the seat is still empty (atomic: two visitors cannot both win)."""
        column = _ROOMS.c.seat0_id if seat == 0 else _ROOMS.c.seat1_id
        claim = update(_ROOMS).where(_ROOMS.c.code == code, column.is_(None))
        taken: bool = await self.db.write(
            lambda connection: bool(connection.execute(claim.values({column: player_id})).rowcount)
        )
        return taken

    async def came(self, code: str, seat: int) -> tuple[bool, bool]:
        """The player of ``seat`` opened the tournament table ``code``: who has come, after
        this (one conditional update, then a read in the same transaction)."""
        column = _ROOMS.c.came0 if seat == 0 else _ROOMS.c.came1

        def mark(connection: Connection) -> tuple[bool, bool]:
            connection.execute(
                update(_ROOMS)
                .where(_ROOMS.c.code == code, column.is_(False))
                .values({column: True})
            )
            found = connection.execute(
                select(_ROOMS.c.came0, _ROOMS.c.came1).where(_ROOMS.c.code == code)
            ).one()
            return bool(found.came0), bool(found.came1)

        marked: tuple[bool, bool] = await self.db.write(mark)
        return marked

    async def rooms_of(self, player_id: str, limit: int = 50) -> list[tuple[Room, MatchRow]]:
        """The player's rooms whose match has started, with the match; the latest first."""
        statement = (
            select(RoomRow, MatchRow)
            .join(MatchRow, MatchRow.id == RoomRow.match_id)
            .where(or_(RoomRow.seat0_id == player_id, RoomRow.seat1_id == player_id))
            .order_by(MatchRow.updated_at.desc())
            .limit(limit)
        )
        rows = await self.db.rows(lambda session: list(session.execute(statement)))
        return [(room_value(room), match) for room, match in rows]

    async def quick_room_in_play(self, player_id: str) -> str | None:
        """The code of the player's newest quick match room whose match is not over."""
        statement = (
            select(RoomRow.code)
            .join(MatchRow, MatchRow.id == RoomRow.match_id)
            .where(
                RoomRow.kind == RoomKind.QUICK.value,
                or_(RoomRow.seat0_id == player_id, RoomRow.seat1_id == player_id),
                MatchRow.finished.is_(False),
            )
            .order_by(RoomRow.created_at.desc())
            .limit(1)
        )
        found: str | None = await self.db.rows(lambda session: session.scalar(statement))
        return found

    # -- matches ----------------------------------------------------------------------------------

    async def create_match(
        self, room_code: str, match: MatchRow, events: list[dict[str, Any]], at: float
    ) -> None:
        """Store a new match as the room's match; Conflict if the room has one already."""
        await self.db.write(
            partial(_create_match, room_code=room_code, match=match, events=events, at=at)
        )

    async def create_quick_rooms(
        self, choose: ChoosePairs, build: Callable[[str, str, RuleSet, int], NewRoom], at: float
    ) -> list[NewRoom]:
        """In one transaction: ``choose`` picks the pairs (quick match pairing whoever waits,
        under its lock), and a room for each (``build``) is stored with its match and first
        events. The rooms stored."""

        def store(connection: Connection) -> list[NewRoom]:
            made = [build(*start) for start in choose(connection)]
            if not made:
                return made
            # New rooms: four statements for all of them, not four a room (each a round trip
            # to PostgreSQL while the queue's lock is held).
            insert_rows(connection, [room for room, _, _ in made])
            insert_rows(connection, [match for _, match, _ in made])
            firsts = [row for _, match, events in made for row in _event_rows(match, events, at)]
            if firsts:
                connection.execute(insert(_EVENTS), firsts)
            connection.execute(
                _SET_MATCH, [{"b_code": room.code, "b_match": match.id} for room, match, _ in made]
            )
            return made

        stored: list[NewRoom] = await self.db.write(store)
        return stored

    async def match(self, match_id: str) -> MatchRow | None:
        """The match's row as stored now, or None (also for what cannot be an id)."""
        if not is_key(match_id):
            return None
        return await self.db.rows(lambda session: session.get(MatchRow, match_id))

    async def append(self, change: Append) -> None:
        """Store new events and the match's new state in one transaction, or raise Conflict.

        The row is updated only if its version is still the one the writer read, and the events'
        (match, version) keys are unique: of two writers, exactly one commits. Appends that
        arrive together share a transaction (:mod:`bidak.server.shared.store.batches`); each still
        returns only once it is committed, and each conflict is its own.
        """
        await self._appends.submit(change)

    async def close(self) -> None:
        """Stop the append batcher; appends not yet committed are cancelled."""
        await self._appends.close()

    async def _append_batch(self, changes: Sequence[Append]) -> list[WriteResult]:
        """Store ``changes`` in one transaction; if that fails as a whole, one by one."""
        # A batch with an append that must be synced (a match's end, a correspondence move) is
        # synced whole; live moves alone may leave it to the next checkpoint (Append.synced).
        synced = any(change.synced for change in changes)
        if not self.db.is_sqlite and one_statement_fits(changes):
            try:
                return await append_postgres(self.db, changes)
            except StorageError as failed:  # perhaps committed: each writer finds out
                return [failed] * len(changes)
            except IntegrityError:  # an event key taken: find out whose it was
                pass
        elif len(changes) > 1:
            try:
                outcomes: list[WriteResult] = await self.db.write(
                    partial(append_all, changes=changes), urgent=True, synced=synced
                )
                return outcomes
            except StorageError as failed:  # perhaps committed: each writer finds out
                return [failed] * len(changes)
            except Exception:  # e.g. an event key taken: find out whose it was
                pass
        outcomes = []
        for change in changes:
            try:
                one = partial(append_all, changes=[change])
                outcomes.extend(await self.db.write(one, urgent=True, synced=change.synced))
            except IntegrityError:
                outcomes.append(Conflict(change.match_id))
            except Exception as failed:
                outcomes.append(failed)
        return outcomes

    async def events(self, match_id: str, after: int = 0) -> list[EventRow]:
        """The match's stored events after version ``after``, in order."""
        statement = (
            select(EventRow)
            .where(EventRow.match_id == match_id, EventRow.version > after)
            .order_by(EventRow.version)
        )
        return await self.db.rows(lambda session: list(session.scalars(statement)))

    async def overdue(self, before: float, limit: int = 200) -> list[MatchRow]:
        """Unfinished matches whose current clock ran out before ``before``."""
        statement = (
            select(MatchRow)
            .where(
                MatchRow.finished.is_(False),
                MatchRow.deadline.is_not(None),
                MatchRow.deadline < before,
                MatchRow.deadline_version == MatchRow.version,
            )
            .limit(limit)
        )
        return await self.db.rows(lambda session: list(session.scalars(statement)))

    async def rated_match(self, match_id: str) -> RatedMatchRow | None:
        """How the match moved the two ratings, if it was rated and is over; else None."""
        if not is_key(match_id):
            return None
        return await self.db.rows(lambda session: session.get(RatedMatchRow, match_id))

    async def unrated_reason(self, match_id: str) -> str | None:
        """Why a match of a rated room moved no rating (``guest``, ``pair_limit``), or None."""
        if not is_key(match_id):
            return None
        return await self.db.read(partial(unrated_reason, match_id=match_id))

    async def live_matches(self) -> list[MatchRow]:
        """Unfinished matches: their clocks and bots are re-armed at start."""
        statement = select(MatchRow).where(MatchRow.finished.is_(False))
        return await self.db.rows(lambda session: list(session.scalars(statement)))


_ROOMS = cast(Table, RoomRow.__table__)
_EVENTS = cast(Table, EventRow.__table__)
_SET_MATCH = (
    update(_ROOMS)
    .where(_ROOMS.c.code == bindparam("b_code"), _ROOMS.c.match_id.is_(None))
    .values(match_id=bindparam("b_match"))
)


def _create_match(
    connection: Connection,
    room_code: str,
    match: MatchRow,
    events: list[dict[str, Any]],
    at: float,
) -> None:
    claimed = connection.execute(
        update(_ROOMS)
        .where(_ROOMS.c.code == room_code, _ROOMS.c.match_id.is_(None))
        .values(match_id=match.id)
    )
    if not claimed.rowcount:
        raise Conflict(room_code)
    insert_rows(connection, [match])
    if events:
        connection.execute(insert(_EVENTS), _event_rows(match, events, at))


def _event_rows(match: MatchRow, events: list[dict[str, Any]], at: float) -> list[dict[str, Any]]:
    """The rows of a new match's first events, versions 1 on."""
    return [
        {"match_id": match.id, "version": index, "payload": payload, "created_at": at}
        for index, payload in enumerate(events, 1)
    ]


def _now() -> datetime:
    return datetime.now(UTC)
