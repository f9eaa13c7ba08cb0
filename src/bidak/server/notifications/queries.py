"""Notifications' transactions: store one under its unique key, a player's list and unread
count, mark read.

Each function runs inside the caller's transaction (``Database.write`` or ``Database.read``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Table, Update, and_, bindparam, func, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection

from bidak.server.notifications.tables import NotificationRow

_NOTES = cast(Table, NotificationRow.__table__)

LIST_SIZE = 50
"""The newest so many notifications are listed."""


@dataclass(frozen=True, slots=True)
class Note:
    id: int
    kind: str
    room: str | None
    at: float
    read: bool


_TOLD = ("key", "player_id", "kind", "room", "at")
"""The columns a new notification binds when stored (it is stored unread)."""


def _insert_new(insert: Any) -> Any:
    values: dict[str, Any] = {name: bindparam(name) for name in _TOLD}
    return (
        insert(_NOTES)
        .values({**values, "read": False})
        .on_conflict_do_nothing(index_elements=[_NOTES.c.key])
    )


_ADD = {"sqlite": _insert_new(sqlite_insert), "postgresql": _insert_new(postgresql_insert)}
"""The insert that does nothing when the key is stored, in each database's words (the same
``ON CONFLICT (key) DO NOTHING`` in both).

A stored key is the common case, not a race: in a correspondence match the roll and the play
after it are the same turn, so every roll tells its turn again, and the play's telling often
runs while the roll's does. Left to the unique key, each of those raised ``IntegrityError``: a
rollback, on SQLite the writer's connection dropped, and a traceback in a reference cycle (about
120 objects) for a collector the server keeps off. Looking the key up first left the race: on
PostgreSQL 0 to 3 of them in a 1,500-action crowd (``tests/server/test_cycles.py``), 477
unreachable objects at worst."""


def add(
    connection: Connection, *, key: str, player_id: str, kind: str, room: str | None, at: float
) -> bool:
    """Store a notification unless one is stored under ``key`` already (by this transaction's
    time, or by one committing meanwhile); whether this stored it. Never raises for the key."""
    told = dict(zip(_TOLD, (key, player_id, kind, room, at), strict=True))
    return bool(connection.execute(_ADD[connection.dialect.name], told).rowcount)


def newest(connection: Connection, player_id: str) -> list[Note]:
    """The player's newest notifications, newest first."""
    rows = connection.execute(
        select(_NOTES.c.id, _NOTES.c.kind, _NOTES.c.room, _NOTES.c.at, _NOTES.c.read)
        .where(_NOTES.c.player_id == player_id)
        .order_by(_NOTES.c.at.desc(), _NOTES.c.id.desc())
        .limit(LIST_SIZE)
    )
    return [Note(int(r.id), str(r.kind), r.room, float(r.at), bool(r.read)) for r in rows]


def unread(connection: Connection, player_id: str) -> int:
    """How many of the player's notifications are unread (the bell's count)."""
    count = connection.execute(
        select(func.count())
        .select_from(_NOTES)
        .where(and_(_NOTES.c.player_id == player_id, _NOTES.c.read.is_(False)))
    ).scalar_one()
    return int(count)


def _marking(ids: bool, room: bool) -> Update:
    where = [_NOTES.c.player_id == bindparam("player"), _NOTES.c.read.is_(False)]
    if ids:
        where.append(_NOTES.c.id.in_(bindparam("ids", expanding=True)))
    if room:
        where.append(_NOTES.c.room == bindparam("about"))
    return update(_NOTES).where(and_(*where)).values(read=True)


_MARK = {(ids, room): _marking(ids, room) for ids in (False, True) for room in (False, True)}
"""``mark_read``'s four statements, built once (an ``in_`` built per call leaves a reference
cycle; docs/architecture.md, "Storage")."""


def mark_read(
    connection: Connection, player_id: str, ids: list[int] | None, room: str | None = None
) -> None:
    """Mark the player's notifications ``ids`` read, or those about ``room`` (neither: all of
    them); others' are untouched."""
    statement = _MARK[(ids is not None, room is not None)]
    values: dict[str, object] = {"player": player_id}
    if ids is not None:
        values["ids"] = ids
    if room is not None:
        values["about"] = room
    connection.execute(statement, values)
