"""Training's part of a guest signing in (:mod:`bidak.server.shared.store.player_steps`): the
guest's blunder cards and their drill answers, the puzzles made from its cards and its puzzle
answers join the account, and the surer of the two puzzle ratings is the account's."""

from __future__ import annotations

from typing import cast

from sqlalchemy import BindParameter, Table, bindparam, exists, select, update
from sqlalchemy.engine import Connection

from bidak.server.accounts import set_puzzle_rating
from bidak.server.shared.store.models import PlayerRow
from bidak.server.shared.store.player_steps import GuestMerge
from bidak.server.shared.store.rows import move_rows
from bidak.server.training.tables import CardRow, DrillRow, PuzzleAnswerRow, PuzzleRow
from bidak.training.glicko import Rating

_PLAYERS = cast(Table, PlayerRow.__table__)
_CARDS = cast(Table, CardRow.__table__)
_DRILLS = cast(Table, DrillRow.__table__)
_PUZZLES = cast(Table, PuzzleRow.__table__)
_ANSWERS = cast(Table, PuzzleAnswerRow.__table__)


_GUEST: BindParameter[str] = bindparam("merge_guest")
_INTO: BindParameter[str] = bindparam("merge_into")
_OTHER = _CARDS.alias("other")
_MOVE_CARDS = (
    update(_CARDS)
    .where(
        _CARDS.c.player_id == _GUEST,
        ~exists().where(
            _OTHER.c.player_id == _INTO,
            _OTHER.c.match_id == _CARDS.c.match_id,
            _OTHER.c.game == _CARDS.c.game,
            _OTHER.c.turn == _CARDS.c.turn,
            _OTHER.c.kind == _CARDS.c.kind,
        ),
    )
    .values(player_id=_INTO)
)
_MOVE_DRILLS = (
    update(_DRILLS)
    .where(
        _DRILLS.c.player_id == _GUEST,
        _DRILLS.c.card_id.in_(select(_CARDS.c.id).where(_CARDS.c.player_id == _INTO)),
    )
    .values(player_id=_INTO)
)
_MOVE_PUZZLES = update(_PUZZLES).where(_PUZZLES.c.source_id == _GUEST).values(source_id=_INTO)
"""Built once, the guest and the account bound: an ``alias()`` and ``~exists()`` built per
call leave ~400 objects in reference cycles a sign-in (docs/architecture.md, "Storage")."""


def merge_training(connection: Connection, merge: GuestMerge) -> int:
    """A card the account already has for the same decision, or an answer to the same
    puzzle, stays with the retired guest, so nothing is stored twice and nothing is deleted.
    The puzzle rating that is surer (the smaller deviation) is the account's from now on."""
    guest, guest_id, into_id = merge.guest, merge.guest_id, merge.into_id
    ids = {"merge_guest": guest_id, "merge_into": into_id}
    for statement in (_MOVE_CARDS, _MOVE_DRILLS, _MOVE_PUZZLES):
        connection.execute(statement, ids)
    move_rows(connection, _ANSWERS, "player_id", guest_id, into_id, same="puzzle_id")
    account = connection.execute(
        select(_PLAYERS.c.puzzle_deviation).where(_PLAYERS.c.id == into_id)
    ).first()
    if account is not None and guest.puzzle_deviation < account.puzzle_deviation:
        surer = Rating(guest.puzzle_rating, guest.puzzle_deviation, guest.puzzle_volatility)
        set_puzzle_rating(connection, into_id, surer)
    return 0
