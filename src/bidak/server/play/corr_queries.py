"""Correspondence matches' persistence: vacations, when a decision was asked for, a deadline
moved by a vacation, and a player's unfinished matches ('Your games').

Each function runs inside the caller's transaction (``Database.write`` or ``Database.read``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Table, and_, bindparam, insert, or_, select, update
from sqlalchemy.engine import Connection

from bidak.correspondence import Away, book
from bidak.server.play.tables import EventRow, MatchRow, RoomRow, VacationRow
from bidak.server.shared.store.models import PlayerRow

_VACATIONS = cast(Table, VacationRow.__table__)
_EVENTS = cast(Table, EventRow.__table__)
_MATCHES = cast(Table, MatchRow.__table__)
_ROOMS = cast(Table, RoomRow.__table__)
_PLAYERS = cast(Table, PlayerRow.__table__)


def vacations(connection: Connection, player_id: str) -> list[Away]:
    """The player's vacations, past and booked, in order."""
    rows = connection.execute(
        select(_VACATIONS.c.start, _VACATIONS.c.end)
        .where(_VACATIONS.c.player_id == player_id)
        .order_by(_VACATIONS.c.start)
    )
    return [Away(float(row.start), float(row.end)) for row in rows]


def take_vacation(connection: Connection, player_id: str, now: float, days: int, bank: int) -> Away:
    """Book ``days`` of vacation from ``now`` if the bank allows (``VacationError`` if not,
    which rolls the transaction back). The player's row is locked first, so two bookings at
    once are judged one after the other."""
    connection.execute(
        select(_PLAYERS.c.id).where(_PLAYERS.c.id == player_id).with_for_update()
    ).first()
    away = book(vacations(connection, player_id), now, days, bank)
    connection.execute(
        insert(_VACATIONS).values(player_id=player_id, start=away.start, end=away.end)
    )
    return away


_AUTO_ROLLS = select(_PLAYERS.c.id, _PLAYERS.c.auto_roll).where(
    _PLAYERS.c.id.in_(bindparam("ids", expanding=True))
)
"""Built once: run on every correspondence action, an IN built anew would leave a reference
cycle each time (the server's cyclic collector is off, :mod:`bidak.server.shared.collector`)."""


def auto_rolls(connection: Connection, ids: list[str]) -> dict[str, bool]:
    """Whether each of the players asked for forced rolls and single plays to be applied."""
    rows = connection.execute(_AUTO_ROLLS, {"ids": ids})
    return {row.id: bool(row.auto_roll) for row in rows}


def set_auto_roll(connection: Connection, player_id: str, on: bool) -> None:
    """The player's auto-roll setting (docs/correspondence.md)."""
    connection.execute(update(_PLAYERS).where(_PLAYERS.c.id == player_id).values(auto_roll=on))


def asked_at(connection: Connection, match_id: str, version: int) -> float | None:
    """When the match reached ``version`` (the decision pending there was asked for)."""
    found = connection.execute(
        select(_EVENTS.c.created_at).where(
            _EVENTS.c.match_id == match_id, _EVENTS.c.version == version
        )
    ).first()
    return None if found is None else float(found[0])


def move_deadline(connection: Connection, match_id: str, version: int, deadline: float) -> bool:
    """Set the deadline of the decision pending at ``version``, if the match is still there
    (one conditional update: a move made meanwhile wins)."""
    moved = connection.execute(
        update(_MATCHES)
        .where(
            _MATCHES.c.id == match_id,
            _MATCHES.c.version == version,
            _MATCHES.c.deadline_version == version,
            _MATCHES.c.finished.is_(False),
        )
        .values(deadline=deadline)
    )
    return bool(moved.rowcount)


def take_lease(
    connection: Connection, match_id: str, version: int, now: float, seconds: float
) -> bool:
    """Hold the match at ``version`` for ``seconds`` to apply its timeout: True for the one
    process that takes it (no lease, or one that ran out), False for every other."""
    taken = connection.execute(
        update(_MATCHES)
        .where(
            _MATCHES.c.id == match_id,
            _MATCHES.c.version == version,
            _MATCHES.c.finished.is_(False),
            or_(_MATCHES.c.lease_until.is_(None), _MATCHES.c.lease_until < now),
        )
        .values(lease_until=now + seconds)
    )
    return bool(taken.rowcount)


@dataclass(frozen=True)
class Unfinished:
    """One of a player's unfinished matches, as stored."""

    room: str
    kind: str
    bot_level: str | None
    seat0_id: str | None
    seat1_id: str | None
    days_per_move: int | None
    match_id: str
    state: dict[str, Any]
    version: int
    deadline: float | None
    deadline_version: int | None


def unfinished(connection: Connection, player_id: str, limit: int = 200) -> list[Unfinished]:
    """The player's matches that have started and are not over (practice ones included)."""
    rows = connection.execute(
        select(
            _ROOMS.c.code,
            _ROOMS.c.kind,
            _ROOMS.c.bot_level,
            _ROOMS.c.seat0_id,
            _ROOMS.c.seat1_id,
            _ROOMS.c.days_per_move,
            _MATCHES.c.id,
            _MATCHES.c.state,
            _MATCHES.c.version,
            _MATCHES.c.deadline,
            _MATCHES.c.deadline_version,
        )
        .join(_MATCHES, _MATCHES.c.id == _ROOMS.c.match_id)
        .where(
            and_(
                or_(_ROOMS.c.seat0_id == player_id, _ROOMS.c.seat1_id == player_id),
                _MATCHES.c.finished.is_(False),
            )
        )
        .limit(limit)
    )
    return [Unfinished(*row) for row in rows]
