"""A rated match's end, written in the transaction that stores the match's last events.

:func:`rate` reads both players' ratings under a lock, computes the FIBS changes
(:func:`bidak.ratings.fibs_change`) and stores them with the match as key, so a match end that is
processed twice (two processes, a retried append) moves the ratings once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import cast

from sqlalchemy import Table, bindparam, select, update
from sqlalchemy.engine import Connection

from bidak.ratings import fibs_change
from bidak.server.shared.store.models import PlayerRow, RatedMatchRow

_PLAYERS = cast(Table, PlayerRow.__table__)
_RATED = cast(Table, RatedMatchRow.__table__)
_BOTH = (
    select(_PLAYERS.c.id, _PLAYERS.c.rating, _PLAYERS.c.experience)
    .where(_PLAYERS.c.id.in_(bindparam("both", expanding=True)))
    .order_by(_PLAYERS.c.id)  # the same order everywhere: no deadlock between two ends
    .with_for_update()
)
"""Both players' rows, locked. Built once: an ``in_`` of a list built per call leaves a
reference cycle behind (``docs/architecture.md``, "Storage")."""


@dataclass(frozen=True)
class RatedEnd:
    """Who won and lost a rated match of ``length`` points."""

    match_id: str
    winner_id: str
    loser_id: str
    length: int


def rate(connection: Connection, end: RatedEnd, at: datetime) -> bool:
    """Move both ratings for ``end``, once; False if this match was rated already."""
    if end.winner_id == end.loser_id:
        raise ValueError("a player cannot be rated against themselves")
    done = connection.execute(
        select(_RATED.c.match_id).where(_RATED.c.match_id == end.match_id)
    ).first()
    if done is not None:
        return False
    rows = {
        row.id: row for row in connection.execute(_BOTH, {"both": [end.winner_id, end.loser_id]})
    }
    winner, loser = rows[end.winner_id], rows[end.loser_id]
    gain, loss = fibs_change(
        winner.rating, loser.rating, end.length, winner.experience, loser.experience
    )
    connection.execute(
        _RATED.insert().values(
            match_id=end.match_id,
            winner_id=end.winner_id,
            loser_id=end.loser_id,
            length=end.length,
            winner_before=winner.rating,
            loser_before=loser.rating,
            winner_change=gain,
            loser_change=loss,
            at=at,
        )
    )
    for row, change in ((winner, gain), (loser, loss)):
        connection.execute(
            update(_PLAYERS)
            .where(_PLAYERS.c.id == row.id)
            .values(rating=row.rating + change, experience=row.experience + end.length)
        )
    return True
