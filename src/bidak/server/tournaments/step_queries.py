"""What a tournament's steps share (:mod:`.queries`, :mod:`.grace_queries`): the tables, what
one step did, and the rows written when a match is decided."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from sqlalchemy import Table, select, update
from sqlalchemy.engine import Connection

from bidak.server.play.tables import RoomRow
from bidak.server.shared.refusal import Refusal
from bidak.server.tournaments.tables import EntrantRow, TournamentMatchRow, TournamentRow
from bidak.tournament import ArenaEntrant

T = cast(Table, TournamentRow.__table__)
E = cast(Table, EntrantRow.__table__)
M = cast(Table, TournamentMatchRow.__table__)
ROOMS = cast(Table, RoomRow.__table__)

ACTIVE = ("open", "running")
"""The statuses of a tournament not over."""

NOT_OVER = T.c.status.in_(ACTIVE)
"""The condition "not over", built once. An IN of literal values built anew leaves a reference
cycle behind each statement that runs it (10 objects with SQLAlchemy 2.1), and the server's
cyclic collector is off (:mod:`bidak.server.shared.collector`): the tick that runs every second
would pile them up. Statements use this one."""


class TournamentError(Refusal):
    """A tournament request the server refuses (see :class:`Refusal`)."""


def tournament_row(connection: Connection, tournament_id: str, lock: bool = False) -> Any:
    """The tournament's row (locked with ``lock``); ``TournamentError`` ``not_found``."""
    query = select(T).where(T.c.id == tournament_id)
    found = connection.execute(query.with_for_update() if lock else query).first()
    if found is None:
        raise TournamentError("not_found", "There is no tournament with that link")
    return found


NOBODY = ""
"""The winner stored for an arena match neither player came to (decided: nobody won it)."""


@dataclass
class Step:
    """What one step did: matches to make rooms for, and whether anything changed."""

    planned: list[TournamentMatchRow] = field(default_factory=list)
    start: list[str] = field(default_factory=list)
    """Rooms both players came to whose match has not started (a start that failed)."""
    changed: bool = False
    finished: bool = False


def arena_entrant(row: Any) -> ArenaEntrant:
    return ArenaEntrant(
        row.player_id,
        row.rating,
        score=row.score,
        streak=row.streak,
        wins=row.wins,
        played=row.played,
        last_opponent=row.last_opponent,
        playing=row.room_code is not None,
        # A banned player (``barred``, read with the entrants) is never paired: an arena sees
        # them as paused until the ban is lifted and they join again.
        paused=bool(row.paused) or bool(row.barred),
        absences=int(row.absences or 0),
    )


def save_entrant(connection: Connection, tournament_id: str, e: ArenaEntrant) -> None:
    connection.execute(
        update(E)
        .where(E.c.tournament_id == tournament_id, E.c.player_id == e.player)
        .values(
            score=e.score,
            streak=e.streak,
            wins=e.wins,
            played=e.played,
            last_opponent=e.last_opponent,
            room_code=None,
            absences=e.absences,
            paused=e.paused,
        )
    )


def decide(connection: Connection, room_code: str, winner: str, how: str) -> None:
    connection.execute(
        update(M)
        .where(M.c.room_code == room_code, M.c.winner_id.is_(None))
        .values(winner_id=winner, how=how)
    )
