"""Appending to a match's log, the hot path of every action: advance the match's row if it is
still at the version its writer read (a :class:`Conflict` if another writer moved it first), and
insert the events, in the caller's transaction; written with Core statements built once, on
PostgreSQL as one statement (:func:`append_postgres`) and on SQLite through the driver itself
(:func:`_append_all_sqlite`). Why: ``docs/performance.md``, "Storage"."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import Table, bindparam, insert, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError

from bidak.server.play.rated_queries import RatedEnd, rate
from bidak.server.play.tables import EventRow, MatchRow
from bidak.server.shared.store.batches import WriteResult
from bidak.server.shared.store.db import Database, json_text

_MATCHES = cast(Table, MatchRow.__table__)
_EVENTS = cast(Table, EventRow.__table__)


def _now() -> datetime:
    return datetime.now(UTC)


class Conflict(Exception):
    """Another writer appended to the match first; reload and try again."""


@dataclass(frozen=True)
class Append:
    """What one accepted intent changes: new events and the match row's new values."""

    match_id: str
    expected_version: int
    events: list[dict[str, Any]]
    state: dict[str, Any]
    dice_drawn: int
    deadline: float | None
    deadline_version: int | None
    finished: bool
    at: float
    rated: RatedEnd | None = None
    """Set on the append that ends a rated match: the ratings move in the same transaction."""
    synced: bool = True
    """Whether its commit waits for the disk whatever ``BIDAK_SQLITE_SYNC`` says; False for a
    move of a live match that does not end it, which ``moves`` leaves to the next checkpoint
    (:func:`bidak.server.shared.store.sqlite.sync_level`)."""


_ADVANCE = (
    update(_MATCHES)
    .where(_MATCHES.c.id == bindparam("m_id"), _MATCHES.c.version == bindparam("m_expected"))
    .values(
        state=bindparam("m_state"),
        version=bindparam("m_version"),
        dice_drawn=bindparam("m_dice_drawn"),
        deadline=bindparam("m_deadline"),
        deadline_version=bindparam("m_deadline_version"),
        finished=bindparam("m_finished"),
        updated_at=bindparam("m_updated_at"),
    )
)
"""A match row moves to its new state if it is still at the version its writer read."""


def append_all(connection: Connection, changes: Sequence[Append]) -> list[WriteResult]:
    """Advance each match row (a Conflict for each row another writer moved first), then insert
    the events of those that advanced, all in the caller's transaction.

    Core statements on the tables, built once: the hot path of every action skips the ORM's
    unit of work. On SQLite they go straight to the driver (:func:`_append_all_sqlite`).
    """
    if connection.dialect.name == "sqlite" and not any(c.rated for c in changes):
        return _append_all_sqlite(connection, changes)
    outcomes: list[WriteResult] = []
    rows: list[dict[str, Any]] = []
    now = _now()
    for change in changes:
        result = connection.execute(
            _ADVANCE,
            {
                "m_id": change.match_id,
                "m_expected": change.expected_version,
                "m_state": change.state,
                "m_version": change.expected_version + len(change.events),
                "m_dice_drawn": change.dice_drawn,
                "m_deadline": change.deadline,
                "m_deadline_version": change.deadline_version,
                "m_finished": change.finished,
                "m_updated_at": now,
            },
        )
        if not result.rowcount:
            outcomes.append(Conflict(change.match_id))
            continue
        outcomes.append(None)
        if change.rated is not None:
            rate(connection, change.rated, now)
        rows.extend(
            {
                "match_id": change.match_id,
                "version": change.expected_version + offset,
                "payload": payload,
                "created_at": change.at,
            }
            for offset, payload in enumerate(change.events, 1)
        )
    if rows:
        connection.execute(insert(_EVENTS), rows)
    return outcomes


_POSTGRES_APPEND = """
WITH changes AS (
    SELECT * FROM unnest($1::varchar[], $2::int[], $3::text[], $4::int[], $5::int[],
                         $6::float8[], $7::int[], $8::bool[])
        AS c(id, expected, state, version, dice_drawn, deadline, deadline_version, finished)
), advanced AS (
    UPDATE matches AS m
    SET state = c.state::json, version = c.version, dice_drawn = c.dice_drawn,
        deadline = c.deadline, deadline_version = c.deadline_version, finished = c.finished,
        updated_at = $9
    FROM changes AS c
    WHERE m.id = c.id AND m.version = c.expected
    RETURNING m.id
), added AS (
    INSERT INTO events (match_id, version, payload, created_at)
    SELECT e.match_id, e.version, e.payload::json, e.created_at
    FROM unnest($10::varchar[], $11::int[], $12::text[], $13::float8[])
        AS e(match_id, version, payload, created_at)
    WHERE e.match_id IN (SELECT id FROM advanced)
)
SELECT id FROM advanced
"""
""":func:`append_all` on PostgreSQL as one statement: the rows that still have the expected
version advance, and only their events are inserted."""


def one_statement_fits(changes: Sequence[Append]) -> bool:
    """Whether :data:`_POSTGRES_APPEND` stores ``changes`` as :func:`append_all` would: no
    rated end (the ratings move in the same transaction) and no match twice (its second
    change expects the version the first one writes)."""
    ids = {change.match_id for change in changes}
    return len(ids) == len(changes) and all(change.rated is None for change in changes)


async def append_postgres(db: Database, changes: Sequence[Append]) -> list[WriteResult]:
    """:func:`append_all` in one round trip to PostgreSQL (:meth:`Database.statement`), for
    changes :func:`one_statement_fits`: a Conflict for each row another writer moved first.
    Why: ``docs/performance.md``, "The PostgreSQL append"."""
    events = [
        (change.match_id, change.expected_version + offset, json_text(payload), change.at)
        for change in changes
        for offset, payload in enumerate(change.events, 1)
    ]
    advanced = await db.statement(
        _POSTGRES_APPEND,
        [change.match_id for change in changes],
        [change.expected_version for change in changes],
        [json_text(change.state) for change in changes],
        [change.expected_version + len(change.events) for change in changes],
        [change.dice_drawn for change in changes],
        [change.deadline for change in changes],
        [change.deadline_version for change in changes],
        [change.finished for change in changes],
        _now(),
        [event[0] for event in events],
        [event[1] for event in events],
        [event[2] for event in events],
        [event[3] for event in events],
    )
    moved = {row[0] for row in advanced}
    return [None if change.match_id in moved else Conflict(change.match_id) for change in changes]


_SQLITE_ADVANCE = (
    "UPDATE matches SET state = ?, version = ?, dice_drawn = ?, deadline = ?,"
    " deadline_version = ?, finished = ?, updated_at = ? WHERE id = ? AND version = ?"
)
_SQLITE_MOVE = (
    "UPDATE matches SET state = ?, version = ?, dice_drawn = ?, deadline = ?,"
    " deadline_version = ?, updated_at = ? WHERE id = ? AND version = ?"
)
"""A move that does not end its match leaves ``finished`` as it is (false: a finished match
is never appended to). SQLite rewrites an index entry of every column a ``SET`` names, changed
or not, so naming ``finished`` dirtied a page of ``ix_matches_finished`` at every move
(``docs/performance.md``, "Where an action's CPU goes, and four cuts")."""
_SQLITE_EVENTS = "INSERT INTO events (match_id, version, payload, created_at) VALUES (?, ?, ?, ?)"


def _append_all_sqlite(connection: Connection, changes: Sequence[Append]) -> list[WriteResult]:
    """:func:`append_all` through the sqlite3 driver itself: the same two statements and the
    same stored text (values go through the columns' own SQLAlchemy converters), without
    SQLAlchemy's per-statement work (measured: ``docs/performance.md``, "The SQLite append").
    The driver's errors are raised as SQLAlchemy's, like every other statement's."""
    dialect = connection.dialect
    json_text = _MATCHES.c.state.type.dialect_impl(dialect).bind_processor(dialect)
    stamp = _MATCHES.c.updated_at.type.dialect_impl(dialect).bind_processor(dialect)
    assert json_text is not None and stamp is not None
    now = stamp(_now())
    cursor = connection.connection.driver_connection.cursor()  # type: ignore[union-attr]
    outcomes: list[WriteResult] = []
    rows: list[tuple[Any, ...]] = []
    statement = _SQLITE_ADVANCE
    try:
        for change in changes:
            # A move that does not end its match leaves ``finished`` out (``_SQLITE_MOVE``).
            statement = _SQLITE_ADVANCE if change.finished else _SQLITE_MOVE
            ended: tuple[bool, ...] = (True,) if change.finished else ()
            values = (
                json_text(change.state),
                change.expected_version + len(change.events),
                change.dice_drawn,
                change.deadline,
                change.deadline_version,
                *ended,
                now,
                change.match_id,
                change.expected_version,
            )
            cursor.execute(statement, values)
            if not cursor.rowcount:
                outcomes.append(Conflict(change.match_id))
                continue
            outcomes.append(None)
            rows.extend(
                (change.match_id, change.expected_version + offset, json_text(payload), change.at)
                for offset, payload in enumerate(change.events, 1)
            )
        if rows:
            statement = _SQLITE_EVENTS
            cursor.executemany(statement, rows)
    except sqlite3.Error as failed:
        raise DBAPIError.instance(statement, None, failed, sqlite3.Error) from failed
    finally:
        cursor.close()
    return outcomes
