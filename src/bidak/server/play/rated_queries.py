"""A rated match's end, written in the transaction that stores the match's last events.

:func:`rate` reads both players' ratings under a lock, computes the FIBS changes
(:func:`bidak.ratings.fibs_change`) and stores them with the match as key, so a match end that is
processed twice (two processes, a retried append) moves the ratings once. A player a moderator
banned from rated play (``players.rated_ban``) moves no rating: such a match is not rated.

Ratings cannot be farmed: a match moves ratings only between two accounts with a linked e-mail
address (a guest's results are unrated: ``guest``), and the same two accounts move each other's
ratings at most :data:`PAIR_LIMIT` times in :data:`PAIR_WINDOW` (further matches are unrated:
``pair_limit``). Why a match of a rated room moved nothing is stored with it
(``unrated_matches``) for the match-over dialog. The count is read after both players' rows are
locked, so two matches of one pair ending at once are counted one after the other: they cannot
both be the third.

A correspondence match moves the correspondence rating (``players.corr_rating`` and its
experience), never the live one: live and correspondence play are different skills.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import cast

from sqlalchemy import Table, and_, bindparam, func, or_, select, update
from sqlalchemy.engine import Connection

from bidak.ratings import fibs_change
from bidak.server.play.tables import RatedMatchRow, UnratedMatchRow
from bidak.server.shared.store.models import PlayerRow

PAIR_LIMIT = 3
"""Rated matches the same two accounts may move each other's ratings with in :data:`PAIR_WINDOW`."""
PAIR_WINDOW = timedelta(days=1)
GUEST = "guest"
PAIR = "pair_limit"
BANNED = "banned"

_PLAYERS = cast(Table, PlayerRow.__table__)
_RATED = cast(Table, RatedMatchRow.__table__)
_UNRATED = cast(Table, UnratedMatchRow.__table__)
_BOTH = (
    select(
        _PLAYERS.c.id,
        _PLAYERS.c.rating,
        _PLAYERS.c.experience,
        _PLAYERS.c.corr_rating,
        _PLAYERS.c.corr_experience,
        _PLAYERS.c.rated_ban,
        _PLAYERS.c.email,
    )
    .where(_PLAYERS.c.id.in_(bindparam("both", expanding=True)))
    .order_by(_PLAYERS.c.id)  # the same order everywhere: no deadlock between two ends
    .with_for_update()
)
"""Both players' rows, locked. Built once: an ``in_`` of a list built per call leaves a
reference cycle behind (``docs/architecture.md``, "Storage")."""
_PAIRED = (
    select(func.count())
    .select_from(_RATED)
    .where(
        or_(
            and_(_RATED.c.winner_id == bindparam("a"), _RATED.c.loser_id == bindparam("b")),
            and_(_RATED.c.winner_id == bindparam("b"), _RATED.c.loser_id == bindparam("a")),
        ),
        _RATED.c.at > bindparam("since"),
    )
)
"""How many times the two moved each other's ratings since ``since``."""


@dataclass(frozen=True)
class RatedEnd:
    """Who won and lost a rated match of ``length`` points."""

    match_id: str
    winner_id: str
    loser_id: str
    length: int
    correspondence: bool = False
    """The match was a correspondence match: its rating moves, not the live one."""


def rate(connection: Connection, end: RatedEnd, at: datetime) -> bool:
    """Move both ratings for ``end``, once; False if this match was rated already, either
    player is banned from rated play (their results no longer count), either is a guest or the
    two have played their rated matches of the day (both stored as why it was unrated)."""
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
    if winner.rated_ban or loser.rated_ban:
        return _unrated(connection, end, BANNED, at)
    if not winner.email or not loser.email:
        return _unrated(connection, end, GUEST, at)
    paired = connection.execute(
        _PAIRED, {"a": end.winner_id, "b": end.loser_id, "since": at - PAIR_WINDOW}
    ).scalar_one()
    if paired >= PAIR_LIMIT:
        return _unrated(connection, end, PAIR, at)
    rating, experience = (
        ("corr_rating", "corr_experience")
        if end.correspondence
        else (
            "rating",
            "experience",
        )
    )
    before = {row.id: (getattr(row, rating), getattr(row, experience)) for row in (winner, loser)}
    (winner_rating, winner_exp), (loser_rating, loser_exp) = before[winner.id], before[loser.id]
    gain, loss = fibs_change(winner_rating, loser_rating, end.length, winner_exp, loser_exp)
    connection.execute(
        _RATED.insert().values(
            match_id=end.match_id,
            winner_id=end.winner_id,
            loser_id=end.loser_id,
            length=end.length,
            winner_before=winner_rating,
            loser_before=loser_rating,
            winner_change=gain,
            loser_change=loss,
            at=at,
            correspondence=end.correspondence,
        )
    )
    for row, change in ((winner, gain), (loser, loss)):
        connection.execute(
            update(_PLAYERS)
            .where(_PLAYERS.c.id == row.id)
            .values(
                {
                    rating: before[row.id][0] + change,
                    experience: before[row.id][1] + end.length,
                }
            )
        )
    return True


def _unrated(connection: Connection, end: RatedEnd, reason: str, at: datetime) -> bool:
    done = connection.execute(
        select(_UNRATED.c.match_id).where(_UNRATED.c.match_id == end.match_id)
    ).first()
    if done is None:
        connection.execute(
            _UNRATED.insert().values(
                match_id=end.match_id,
                winner_id=end.winner_id,
                loser_id=end.loser_id,
                reason=reason,
                at=at,
            )
        )
    return False


def unrated_reason(connection: Connection, match_id: str) -> str | None:
    """Why a match of a rated room moved no rating (``guest``, ``pair_limit``), or None."""
    found = connection.execute(
        select(_UNRATED.c.reason).where(_UNRATED.c.match_id == match_id)
    ).first()
    return None if found is None else str(found[0])
