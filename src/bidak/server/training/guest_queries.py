"""Training's part of a guest signing in (:mod:`bidak.server.shared.store.player_steps`): the
guest's blunder cards and their drill answers, the puzzles made from its cards and its puzzle
answers join the account, and the surer of the two puzzle ratings is the account's."""

from __future__ import annotations

from typing import cast

from sqlalchemy import Table, exists, select, update
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


def merge_training(connection: Connection, merge: GuestMerge) -> int:
    """A card the account already has for the same decision, or an answer to the same
    puzzle, stays with the retired guest, so nothing is stored twice and nothing is deleted.
    The puzzle rating that is surer (the smaller deviation) is the account's from now on."""
    guest, guest_id, into_id = merge.guest, merge.guest_id, merge.into_id
    other = _CARDS.alias("other")
    same_place = exists().where(
        other.c.player_id == into_id,
        other.c.match_id == _CARDS.c.match_id,
        other.c.game == _CARDS.c.game,
        other.c.turn == _CARDS.c.turn,
        other.c.kind == _CARDS.c.kind,
    )
    connection.execute(
        update(_CARDS).where(_CARDS.c.player_id == guest_id, ~same_place).values(player_id=into_id)
    )
    moved_cards = select(_CARDS.c.id).where(_CARDS.c.player_id == into_id)
    connection.execute(
        update(_DRILLS)
        .where(_DRILLS.c.player_id == guest_id, _DRILLS.c.card_id.in_(moved_cards))
        .values(player_id=into_id)
    )
    connection.execute(
        update(_PUZZLES).where(_PUZZLES.c.source_id == guest_id).values(source_id=into_id)
    )
    move_rows(connection, _ANSWERS, "player_id", guest_id, into_id, same="puzzle_id")
    account = connection.execute(
        select(_PLAYERS.c.puzzle_deviation).where(_PLAYERS.c.id == into_id)
    ).first()
    if account is not None and guest.puzzle_deviation < account.puzzle_deviation:
        surer = Rating(guest.puzzle_rating, guest.puzzle_deviation, guest.puzzle_volatility)
        set_puzzle_rating(connection, into_id, surer)
    return 0
