"""Puzzles' transactions: offering a banked card as a puzzle, the player's sharing switch (which
withdraws their puzzles from the pool), the next puzzle for a solver, and an answer that moves both
ratings, once per solver and puzzle."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from sqlalchemy import Float, Table, bindparam, func, insert, select, update
from sqlalchemy.engine import Connection, Row

from bidak.server.accounts import set_puzzle_rating
from bidak.server.shared.store.models import PlayerRow
from bidak.server.training.tables import CardRow, PuzzleAnswerRow, PuzzleRow
from bidak.training.glicko import Rating
from bidak.training.puzzles import PUZZLE_START, gap, is_puzzle, is_right, nearest, settle

_CARDS = cast(Table, CardRow.__table__)
_PLAYERS = cast(Table, PlayerRow.__table__)
_PUZZLES = cast(Table, PuzzleRow.__table__)
_ANSWERS = cast(Table, PuzzleAnswerRow.__table__)
NEAREST = 24
"""How many puzzles nearest the solver's rating are read to choose from."""


def offer(connection: Connection, card_id: int, card: dict[str, Any], now: float) -> bool:
    """Make the card a puzzle if its best choice is clear and its player shares their positions
    (``players.puzzles_shared``, read in this transaction), and it is none yet. Returns whether a
    puzzle was added."""
    if not is_puzzle(card["kind"], card["analysis"]):
        return False
    shared = connection.execute(
        select(_PLAYERS.c.puzzles_shared).where(_PLAYERS.c.id == card["player_id"])
    ).scalar_one_or_none()
    if not shared:
        return False
    if connection.execute(select(_PUZZLES.c.id).where(_PUZZLES.c.card_id == card_id)).first():
        return False
    connection.execute(
        insert(_PUZZLES).values(
            card_id=card_id,
            source_id=card["player_id"],
            kind=card["kind"],
            theme=card["theme"],
            gap=gap(card["kind"], card["analysis"]),
            rating=PUZZLE_START.rating,
            deviation=PUZZLE_START.deviation,
            volatility=PUZZLE_START.volatility,
            created_at=now,
        )
    )
    return True


def share(connection: Connection, player_id: str, shared: bool) -> None:
    """Set whether the player's positions may become puzzles. Switched off, their puzzles leave
    the pool at once and for good (withdrawn; the answers to them stay, the solvers' history);
    cards banked later are not offered. Switched on again, only cards banked from then on are."""
    connection.execute(
        update(_PLAYERS).where(_PLAYERS.c.id == player_id).values(puzzles_shared=shared)
    )
    if not shared:
        connection.execute(
            update(_PUZZLES).where(_PUZZLES.c.source_id == player_id).values(withdrawn=True)
        )


def solver(connection: Connection, player_id: str, lock: bool = False) -> Row[Any] | None:
    """The player's puzzle rating and sharing switch (the row locked when ``lock``)."""
    query = select(
        _PLAYERS.c.puzzles_shared,
        _PLAYERS.c.puzzle_rating,
        _PLAYERS.c.puzzle_deviation,
        _PLAYERS.c.puzzle_volatility,
    ).where(_PLAYERS.c.id == player_id)
    found = connection.execute(query.with_for_update() if lock else query).first()
    return cast(Row[Any] | None, found)


def summary(connection: Connection, player_id: str) -> dict[str, Any]:
    """The solver's rating, answers, right answers and sharing switch, and how many puzzles of
    each theme are left for them."""
    me = solver(connection, player_id)
    mine = select(func.count()).select_from(_ANSWERS).where(_ANSWERS.c.player_id == player_id)
    answered = int(connection.execute(mine).scalar_one())
    right = int(connection.execute(mine.where(_ANSWERS.c.right.is_(True))).scalar_one())
    rows = connection.execute(
        select(_PUZZLES.c.theme, func.count())
        .where(*_open_to(player_id))
        .group_by(_PUZZLES.c.theme)
    )
    return {
        "rating": me.puzzle_rating if me else PUZZLE_START.rating,
        "deviation": me.puzzle_deviation if me else PUZZLE_START.deviation,
        "shared": bool(me.puzzles_shared) if me else True,
        "answered": answered,
        "right": right,
        "themes": {row[0]: int(row[1]) for row in rows},
    }


def _open_to(player_id: str) -> list[Any]:
    """Puzzles the player may be given: not from their own cards, not answered by them."""
    done = select(_ANSWERS.c.puzzle_id).where(_ANSWERS.c.player_id == player_id)
    return [
        _PUZZLES.c.withdrawn.is_(False),
        _PUZZLES.c.source_id != player_id,
        _PUZZLES.c.id.not_in(done),
    ]


_DISTANCE = func.abs(_PUZZLES.c.rating - bindparam("rating", type_=Float))
"""How far a puzzle's rating is from the solver's (bound when run). Built once: arithmetic on
a column builds an expression whose comparator refers back to it, a reference cycle each time
(the server's cyclic collector is off, :mod:`bidak.server.shared.collector`)."""


def next_puzzle(
    connection: Connection, player_id: str, theme: str | None, rating: float
) -> Row[Any] | None:
    """The puzzle (joined with its card) nearest the solver's rating, in ``theme`` if given,
    that the solver has not answered and that is not from their own cards; ``None`` if none."""
    where = _open_to(player_id)
    if theme is not None:
        where.append(_PUZZLES.c.theme == theme)
    near = connection.execute(
        select(_PUZZLES.c.id, _PUZZLES.c.rating)
        .where(*where)
        .order_by(_DISTANCE, _PUZZLES.c.id)
        .limit(NEAREST),
        {"rating": rating},
    ).all()
    chosen = nearest([(row.id, row.rating) for row in near], rating)
    return None if chosen is None else puzzle(connection, chosen)


def puzzle(connection: Connection, puzzle_id: int, lock: bool = False) -> Row[Any] | None:
    """A puzzle in the pool with its card's position and analysis (the puzzle's row locked when
    ``lock``); ``None`` for a withdrawn one."""
    query = (
        select(
            _PUZZLES.c.id,
            _PUZZLES.c.source_id,
            _PUZZLES.c.rating,
            _PUZZLES.c.deviation,
            _PUZZLES.c.volatility,
            _PUZZLES.c.theme,
            _CARDS.c.kind,
            _CARDS.c.seat,
            _CARDS.c.xgid,
            _CARDS.c.phase,
            _CARDS.c.best,
            _CARDS.c.analysis,
        )
        .join(_CARDS, _CARDS.c.id == _PUZZLES.c.card_id)
        .where(_PUZZLES.c.id == puzzle_id, _PUZZLES.c.withdrawn.is_(False))
    )
    if lock:
        query = query.with_for_update(of=_PUZZLES)
    return cast(Row[Any] | None, connection.execute(query).first())


def _stored(connection: Connection, player_id: str, puzzle_id: int) -> Row[Any] | None:
    return connection.execute(
        select(_ANSWERS).where(_ANSWERS.c.player_id == player_id, _ANSWERS.c.puzzle_id == puzzle_id)
    ).first()


def answer(
    connection: Connection,
    *,
    player_id: str,
    puzzle_id: int,
    judge: Callable[[Row[Any]], tuple[str, float]],
    at: float,
) -> dict[str, Any] | None:
    """Judge the solver's answer and move both Glicko-2 ratings, with the answer, in this one
    transaction; ``judge`` gives the answer's stored form and the equity it gave up (it raises
    for an answer that does not fit the puzzle). The solver's and the puzzle's rows are locked,
    and (solver, puzzle) is unique: a retry, or a twin request that waited for the locks, finds
    the first answer and changes nothing (``repeated``); one that lost the race on the key is
    rolled back (``Database.write_keyed`` raises ``KeyTaken``) and reads it after. ``None``: no
    such puzzle (or one of the solver's own)."""
    me = solver(connection, player_id, lock=True)
    found = puzzle(connection, puzzle_id, lock=True)
    if me is None or found is None or found.source_id == player_id:
        return None
    stored = _stored(connection, player_id, puzzle_id)
    if stored is not None:
        return verdict(stored, found.best, repeated=True)
    given, loss = judge(found)
    right = is_right(loss)
    before = Rating(me.puzzle_rating, me.puzzle_deviation, me.puzzle_volatility)
    puzzle_before = Rating(found.rating, found.deviation, found.volatility)
    after, puzzle_after = settle(before, puzzle_before, right)
    set_puzzle_rating(connection, player_id, after)
    connection.execute(
        update(_PUZZLES)
        .where(_PUZZLES.c.id == puzzle_id)
        .values(
            rating=puzzle_after.rating,
            deviation=puzzle_after.deviation,
            volatility=puzzle_after.volatility,
        )
    )
    connection.execute(
        insert(_ANSWERS).values(
            puzzle_id=puzzle_id,
            player_id=player_id,
            answer=given,
            loss=loss,
            right=right,
            solver_before=before.rating,
            solver_after=after.rating,
            puzzle_before=puzzle_before.rating,
            puzzle_after=puzzle_after.rating,
            at=at,
        )
    )
    stored = _stored(connection, player_id, puzzle_id)
    assert stored is not None
    return verdict(stored, found.best, repeated=False)


def stored_verdict(connection: Connection, player_id: str, puzzle_id: int) -> dict[str, Any] | None:
    """The verdict of the solver's stored answer to the puzzle (after ``KeyTaken``)."""
    found = puzzle(connection, puzzle_id)
    stored = _stored(connection, player_id, puzzle_id)
    if found is None or stored is None:
        return None
    return verdict(stored, found.best, repeated=True)


def verdict(stored: Row[Any], best: str, repeated: bool) -> dict[str, Any]:
    return {
        "puzzle_id": stored.puzzle_id,
        "right": bool(stored.right),
        "loss": stored.loss,
        "best": best,
        "rating_before": stored.solver_before,
        "rating": stored.solver_after,
        "puzzle_rating_before": stored.puzzle_before,
        "puzzle_rating": stored.puzzle_after,
        "repeated": repeated,
    }
