"""Challenges: make one, the open ones of a player, answer one by a conditional update.

An answer changes a challenge only while it is ``open``: ``UPDATE ... WHERE id = :id AND
state = 'open'`` in one statement, so of two accepts at once (two tabs, two processes) one
changes the row and names the room, and the other finds it accepted and reads that room.
Each function runs inside the caller's transaction (``Database.write`` or ``Database.read``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Row, Table, and_, func, insert, select, update
from sqlalchemy.engine import Connection

from bidak.challenges import EXPIRES_AFTER, Challenge, State
from bidak.server.friends.tables import ChallengeRow
from bidak.server.shared.store.models import PlayerRow

_CHALLENGES = cast(Table, ChallengeRow.__table__)
_PLAYERS = cast(Table, PlayerRow.__table__)

LIST_SIZE = 50
"""A player's open challenges are listed up to this many each way."""


@dataclass(frozen=True, slots=True)
class Stored:
    """A challenge as stored, with the room an accept made."""

    challenge: Challenge
    options: dict[str, Any]
    room: str | None


@dataclass(frozen=True, slots=True)
class Listed:
    """An open challenge as a list shows it, with the other player's name."""

    id: str
    other_id: str
    other: str
    created: float
    options: dict[str, Any]


def _stored(row: Row[Any]) -> Stored:
    challenge = Challenge(
        id=row.id,
        from_id=row.from_id,
        to_id=row.to_id,
        created=float(row.created),
        state=State(row.state),
    )
    return Stored(challenge, dict(row.options), row.room)


def add(
    connection: Connection,
    *,
    challenge_id: str,
    from_id: str,
    to_id: str,
    now: float,
    options: dict[str, Any],
) -> None:
    connection.execute(
        insert(_CHALLENGES).values(
            id=challenge_id,
            from_id=from_id,
            to_id=to_id,
            created=now,
            state=State.OPEN.value,
            options=options,
        )
    )


def _open_since(now: float) -> Any:
    """Open and not expired at ``now``. With ``and_``, not ``&``: an operator applied to a new
    expression keeps a comparator that refers back to it, a reference cycle a call (the
    server's cyclic collector is off, :mod:`bidak.server.shared.collector`)."""
    return and_(
        _CHALLENGES.c.state == State.OPEN.value, _CHALLENGES.c.created > now - EXPIRES_AFTER
    )


def open_from(connection: Connection, from_id: str, to_id: str, now: float) -> tuple[int, bool]:
    """How many of ``from_id``'s challenges wait for an answer at ``now``, and whether one of
    them is to ``to_id``."""
    rows = connection.execute(
        select(_CHALLENGES.c.to_id, func.count())
        .where(_CHALLENGES.c.from_id == from_id, _open_since(now))
        .group_by(_CHALLENGES.c.to_id)
    ).all()
    return sum(int(count) for _, count in rows), any(to == to_id for to, _ in rows)


def get(connection: Connection, challenge_id: str) -> Stored | None:
    row = connection.execute(select(_CHALLENGES).where(_CHALLENGES.c.id == challenge_id)).first()
    return None if row is None else _stored(row)


def answer(
    connection: Connection, challenge_id: str, state: State, now: float, room: str | None = None
) -> bool:
    """Move an open challenge to ``state`` (with the room an accept names); False when it was
    not open any more (another answer came first)."""
    changed = connection.execute(
        update(_CHALLENGES)
        .where(_CHALLENGES.c.id == challenge_id, _CHALLENGES.c.state == State.OPEN.value)
        .values(state=state.value, decided=now, room=room)
    )
    return bool(changed.rowcount)


def listed(connection: Connection, player_id: str, now: float) -> tuple[list[Listed], list[Listed]]:
    """The open challenges to ``player_id`` and from them, newest first, each with the other
    player's name."""
    return (
        _open(connection, now, _CHALLENGES.c.to_id, player_id, _CHALLENGES.c.from_id),
        _open(connection, now, _CHALLENGES.c.from_id, player_id, _CHALLENGES.c.to_id),
    )


def _open(
    connection: Connection, now: float, mine: Any, player_id: str, other: Any
) -> list[Listed]:
    """The open challenges whose ``mine`` column is the player, with the ``other`` side's
    id and name."""
    rows = connection.execute(
        select(_CHALLENGES, other.label("other_id"), _PLAYERS.c.name.label("other"))
        .join(_PLAYERS, _PLAYERS.c.id == other)
        .where(mine == player_id, _open_since(now))
        .order_by(_CHALLENGES.c.created.desc(), _CHALLENGES.c.id)
        .limit(LIST_SIZE)
    )
    return [
        Listed(row.id, row.other_id, row.other, float(row.created), dict(row.options))
        for row in rows
    ]
