"""A guest's history joins the account it signs in to: its finished matches, coins, cosmetics,
training and the restrictions moderators set on it, in the sign-in's transaction
(:func:`bidak.server.accounts.queries.confirm`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, delete, exists, insert, or_, select, update
from sqlalchemy.engine import Connection

from bidak.economy import Reason
from bidak.fairplay.doors import carried
from bidak.server.accounts.player_queries import set_puzzle_rating
from bidak.server.shared.doors import standing_of
from bidak.server.shared.store.models import (
    ActionRow,
    CardRow,
    DrillRow,
    FiguresRow,
    MatchRow,
    OwnedRow,
    PlayerRow,
    PuzzleAnswerRow,
    PuzzleRow,
    QueueRow,
    ReviewedRow,
    RoomRow,
)
from bidak.server.wallet import append_entry, locked_purse
from bidak.training.glicko import Rating

_PLAYERS = cast(Table, PlayerRow.__table__)
_ACTIONS = cast(Table, ActionRow.__table__)
_ROOMS = cast(Table, RoomRow.__table__)
_MATCHES = cast(Table, MatchRow.__table__)
_OWNED = cast(Table, OwnedRow.__table__)
_QUEUE = cast(Table, QueueRow.__table__)
_CARDS = cast(Table, CardRow.__table__)
_DRILLS = cast(Table, DrillRow.__table__)
_PUZZLES = cast(Table, PuzzleRow.__table__)
_ANSWERS = cast(Table, PuzzleAnswerRow.__table__)
_REVIEWED = cast(Table, ReviewedRow.__table__)
_FIGURES = cast(Table, FiguresRow.__table__)

# -- a guest's history joins the account it signs in to ---------------------------------------


def merge_guest(connection: Connection, guest_id: str, into_id: str, at: datetime) -> int:
    """Move a guest's finished matches (not those against ``into_id`` itself), coins,
    cosmetics and training (:func:`_move_training`) to ``into_id`` and retire the guest; how
    many matches moved. A guest with an e-mail, or already retired, keeps everything (0). The
    guest's row is locked first and its coins move under keys of the merge, so a merge made
    twice moves everything once."""
    guest = connection.execute(
        select(_PLAYERS).where(_PLAYERS.c.id == guest_id).with_for_update()
    ).first()
    if guest is None or guest.email is not None or guest.merged_into is not None:
        return 0
    finished = (
        select(_ROOMS.c.code)
        .join(_MATCHES, _MATCHES.c.id == _ROOMS.c.match_id)
        .where(_MATCHES.c.finished.is_(True))
    )
    moved = 0
    for seat, other in (
        (_ROOMS.c.seat0_id, _ROOMS.c.seat1_id),
        (_ROOMS.c.seat1_id, _ROOMS.c.seat0_id),
    ):
        result = connection.execute(
            update(_ROOMS)
            .where(
                seat == guest_id,
                or_(other.is_(None), other != into_id),
                _ROOMS.c.code.in_(finished),
            )
            .values({seat.key: into_id})
        )
        moved += int(result.rowcount)
    _move_coins(connection, guest_id, into_id, int(guest.coins), at)
    mine = select(_OWNED.c.item).where(_OWNED.c.player_id == into_id)
    connection.execute(
        update(_OWNED)
        .where(_OWNED.c.player_id == guest_id, _OWNED.c.item.not_in(mine))
        .values(player_id=into_id)
    )
    _move_training(connection, guest, into_id)
    _carry_restrictions(connection, guest, into_id, at)
    connection.execute(delete(_QUEUE).where(_QUEUE.c.player_id == guest_id))
    connection.execute(
        update(_PLAYERS)
        .where(_PLAYERS.c.id == guest_id)
        .values(merged_into=into_id, skeleton=None)  # its name is free for the account
    )
    return moved


_CARRIED = {
    "play_ban": ("banned", "banned from play"),
    "rated_ban": ("rated_ban", "banned from rated play"),
    "talk_muted": ("muted", "muted"),
}
"""The restrictions a moderator sets on a player: by column, the field of
:class:`bidak.fairplay.doors.Standing` it is and how an audit entry names it."""


def _carry_restrictions(connection: Connection, guest: Any, into_id: str, at: datetime) -> None:
    """Every restriction of the guest (a ban from play or from rated play, a mute) holds on the
    account it merges into (``bidak.fairplay.doors.carried``): signing in is no way out of a
    ban. An account that gains one is *held* until a moderator decides (it stands in their
    queue), with an audit entry the player sees."""
    account = connection.execute(
        select(_PLAYERS).where(_PLAYERS.c.id == into_id).with_for_update()
    ).first()
    if account is None:
        return
    before = standing_of(PlayerRow(**account._mapping))
    after = carried(standing_of(PlayerRow(**guest._mapping)), before)
    gained = [c for c, (f, _) in _CARRIED.items() if getattr(after, f) != getattr(before, f)]
    if not gained:
        return
    connection.execute(
        update(_PLAYERS)
        .where(_PLAYERS.c.id == into_id)
        .values({**{c: True for c in gained}, "held": True})
    )
    connection.execute(
        insert(_ACTIONS).values(
            player_id=into_id,
            by_id=None,
            kind="carried",
            note="A guest signed in to this account carried a moderator's decision",
            detail=", ".join(_CARRIED[c][1] for c in gained),
            at=at,
        )
    )


def _move_training(connection: Connection, guest: Any, into_id: str) -> None:
    """The guest's training goes with its matches: its blunder cards and their drill answers,
    the puzzles made from its cards, its puzzle answers, the PR and figures of its reviewed
    matches. A row the account already has for the same place (a card of the same decision, an
    answer to the same puzzle, a match's PR) stays with the retired guest, so nothing is
    stored twice and nothing is deleted. The puzzle rating that is surer (the smaller
    deviation) is the account's from now on."""
    guest_id = guest.id
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
    answered = _ANSWERS.alias("answered")
    connection.execute(
        update(_ANSWERS)
        .where(
            _ANSWERS.c.player_id == guest_id,
            ~exists().where(
                answered.c.player_id == into_id, answered.c.puzzle_id == _ANSWERS.c.puzzle_id
            ),
        )
        .values(player_id=into_id)
    )
    for table in (_REVIEWED, _FIGURES):
        mine = table.alias("mine")
        connection.execute(
            update(table)
            .where(
                table.c.player_id == guest_id,
                ~exists().where(mine.c.player_id == into_id, mine.c.match_id == table.c.match_id),
            )
            .values(player_id=into_id)
        )
    account = connection.execute(
        select(_PLAYERS.c.puzzle_deviation).where(_PLAYERS.c.id == into_id)
    ).first()
    if account is not None and guest.puzzle_deviation < account.puzzle_deviation:
        surer = Rating(guest.puzzle_rating, guest.puzzle_deviation, guest.puzzle_volatility)
        set_puzzle_rating(connection, into_id, surer)


def _move_coins(
    connection: Connection, guest_id: str, into_id: str, coins: int, at: datetime
) -> None:
    """The guest's balance moves as two ledger entries (through the wallet's one way of
    changing a balance), under keys of the merge, so it moves once only."""
    if coins <= 0:
        return
    note = f"guest {guest_id[:8]} signed in to {into_id[:8]}"
    for player, amount in ((guest_id, -coins), (into_id, coins)):
        balance = locked_purse(connection, player)["coins"]
        key = f"{player}:merge:{guest_id}:{into_id}"
        append_entry(connection, player, balance, amount, Reason.MERGE, key, at, note=note)
