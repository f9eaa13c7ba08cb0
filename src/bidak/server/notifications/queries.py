"""Notifications' transactions: store one under its unique key, a player's list and unread
count, mark read.

Each function runs inside the caller's transaction (``Database.write`` or ``Database.read``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from sqlalchemy import Table, and_, bindparam, func, insert, select, update
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


_STORED = select(_NOTES.c.id).where(_NOTES.c.key == bindparam("key"))


def add(
    connection: Connection, *, key: str, player_id: str, kind: str, room: str | None, at: float
) -> bool:
    """Store a notification unless one is stored under ``key`` already; whether this stored it.

    Looked up first because a stored key is the common case, not a race: in a correspondence
    match the roll and the play after it are the same turn, so every roll tells its turn again.
    Left to the unique key alone, each of those raised ``IntegrityError``: a rollback, the
    writer's connection dropped, and a traceback's reference cycle (about 120 objects) left for
    a collector the server keeps off. A key stored by another transaction between the look and
    the insert still raises it (:meth:`Database.write_keyed`)."""
    if connection.execute(_STORED, {"key": key}).first() is not None:
        return False
    connection.execute(
        insert(_NOTES).values(key=key, player_id=player_id, kind=kind, room=room, at=at, read=False)
    )
    return True


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


def mark_read(
    connection: Connection, player_id: str, ids: list[int] | None, room: str | None = None
) -> None:
    """Mark the player's notifications ``ids`` read, or those about ``room`` (neither: all of
    them); others' are untouched."""
    where = and_(_NOTES.c.player_id == player_id, _NOTES.c.read.is_(False))
    if ids is not None:
        where = and_(where, _NOTES.c.id.in_(ids))
    if room is not None:
        where = and_(where, _NOTES.c.room == room)
    connection.execute(update(_NOTES).where(where).values(read=True))
