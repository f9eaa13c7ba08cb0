"""Accounts' transactions: one-time e-mail links, addresses, merging, deleting and exporting.

Each function runs on a connection inside ``Database.write`` (or ``read``). A link's token is
never stored, only its SHA-256; using a link is one conditional update (unused, unexpired), so a
link opened twice at once works once. Sessions (opening, listing, ending) are
:mod:`bidak.server.accounts.player_queries`'.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, delete, exists, insert, or_, select, update
from sqlalchemy.engine import Connection

from bidak.economy import Reason
from bidak.server.accounts.player_queries import (
    end_all,
    end_token,
    open_session,
    player_row,
    sessions_of,
    set_puzzle_rating,
)
from bidak.server.mail import Purpose
from bidak.server.shared.store.models import (
    CardRow,
    DrillRow,
    EmailLinkRow,
    FiguresRow,
    LedgerRow,
    MatchRow,
    OwnedRow,
    PlayerRow,
    PuzzleAnswerRow,
    PuzzleRow,
    QueueRow,
    RatedMatchRow,
    ReviewedRow,
    RoomRow,
)
from bidak.server.shared.store.rows import token_hash
from bidak.server.wallet import append_entry, locked_purse, owned
from bidak.training.glicko import Rating

_PLAYERS = cast(Table, PlayerRow.__table__)
_LINKS = cast(Table, EmailLinkRow.__table__)
_ROOMS = cast(Table, RoomRow.__table__)
_MATCHES = cast(Table, MatchRow.__table__)
_OWNED = cast(Table, OwnedRow.__table__)
_QUEUE = cast(Table, QueueRow.__table__)
_LEDGER = cast(Table, LedgerRow.__table__)
_RATED = cast(Table, RatedMatchRow.__table__)
_CARDS = cast(Table, CardRow.__table__)
_DRILLS = cast(Table, DrillRow.__table__)
_PUZZLES = cast(Table, PuzzleRow.__table__)
_ANSWERS = cast(Table, PuzzleAnswerRow.__table__)
_REVIEWED = cast(Table, ReviewedRow.__table__)
_FIGURES = cast(Table, FiguresRow.__table__)

DELETED_NAME = "deleted player"


class LinkRefused(Exception):
    """A link that cannot be used: ``code`` is unknown, used or expired."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


class AddressTaken(Exception):
    """The address was linked to another account meanwhile."""


@dataclass(frozen=True)
class Link:
    """A stored one-time link (its token is not stored)."""

    purpose: str
    player_id: str
    email: str
    expires_at: float
    used_at: float | None


def new_link(
    connection: Connection, purpose: str, player_id: str, email: str, now: float, seconds: float
) -> str:
    """A fresh one-time link token (256 random bits); only its hash is stored."""
    token = secrets.token_urlsafe(32)
    connection.execute(
        insert(_LINKS).values(
            token_hash=token_hash(token),
            purpose=purpose,
            player_id=player_id,
            email=email,
            expires_at=now + seconds,
            used_at=None,
        )
    )
    return token


def peek(connection: Connection, token: str) -> Link | None:
    """The stored link of ``token``, used or not, expired or not; None if there is none."""
    row = connection.execute(select(_LINKS).where(_LINKS.c.token_hash == token_hash(token))).first()
    if row is None:
        return None
    return Link(row.purpose, row.player_id, row.email, row.expires_at, row.used_at)


def peek_with_owner(connection: Connection, token: str) -> tuple[Link, PlayerRow | None] | None:
    """:func:`peek`, and the row of the account the link was made for (None if it is gone)."""
    link = peek(connection, token)
    return None if link is None else (link, player_row(connection, link.player_id))


def use(connection: Connection, token: str, link: Link, now: float) -> None:
    """Mark ``link`` (what :func:`peek` found for ``token``) used, once; :class:`LinkRefused`
    when it is used or expired."""
    if link.used_at is not None:
        raise LinkRefused("used")
    if link.expires_at < now:
        raise LinkRefused("expired")
    taken = connection.execute(
        update(_LINKS)
        .where(_LINKS.c.token_hash == token_hash(token), _LINKS.c.used_at.is_(None))
        .values(used_at=now)
    )
    if taken.rowcount != 1:
        raise LinkRefused("used")


def owner_of(connection: Connection, email: str) -> PlayerRow | None:
    """The account (not deleted) that ``email`` (normalised) is linked to, or None."""
    row = connection.execute(
        select(_PLAYERS).where(_PLAYERS.c.email == email, _PLAYERS.c.deleted_at.is_(None))
    ).first()
    return None if row is None else PlayerRow(**row._mapping)


def set_email(connection: Connection, player_id: str, email: str | None) -> None:
    """Link ``email`` to the account (None removes it); :class:`AddressTaken` if another
    account has it."""
    if email is not None:
        other = connection.execute(
            select(_PLAYERS.c.id).where(_PLAYERS.c.email == email, _PLAYERS.c.id != player_id)
        ).first()
        if other is not None:
            raise AddressTaken(email)
    connection.execute(update(_PLAYERS).where(_PLAYERS.c.id == player_id).values(email=email))


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
    connection.execute(delete(_QUEUE).where(_QUEUE.c.player_id == guest_id))
    connection.execute(
        update(_PLAYERS)
        .where(_PLAYERS.c.id == guest_id)
        .values(merged_into=into_id, skeleton=None)  # its name is free for the account
    )
    return moved


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


# -- deleting -------------------------------------------------------------------------------


def delete_account(connection: Connection, player_id: str, at: datetime) -> None:
    """Forget who the player was: name, address, sessions, looks and queue entry go; match
    records stay readable for the opponents, under the name "deleted player"."""
    end_all(connection, player_id)
    connection.execute(delete(_QUEUE).where(_QUEUE.c.player_id == player_id))
    connection.execute(delete(_LINKS).where(_LINKS.c.player_id == player_id))
    connection.execute(
        update(_PLAYERS)
        .where(_PLAYERS.c.id == player_id)
        .values(
            name=DELETED_NAME,
            skeleton=None,
            email=None,
            deleted_at=at,
            board=None,
            checkers=None,
            access=None,
        )
    )


# -- using a link -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Confirmed:
    """What using a link did."""

    purpose: Purpose
    player_id: str | None
    """The account the browser is now signed in to (None after a deletion)."""
    token: str | None
    """A new session cookie for the browser, when it changed."""
    merged: int = 0
    """How many finished matches of the browser's guest joined the account (a sign-in)."""


class NotYours(Exception):
    """A link that acts on an account, opened in a browser signed in to another one."""


_OWN_ACCOUNT = (Purpose.LINK_EMAIL, Purpose.CHANGE_EMAIL, Purpose.DELETE_ACCOUNT)
"""What a link may do only in a browser of the account that asked for it."""


def confirm(
    connection: Connection,
    token: str,
    now: float,
    at: datetime,
    player_id: str | None,
    session: str | None,
    device: str,
) -> tuple[Confirmed, str]:
    """Check the link of ``token``, use it and do what it says, in the caller's transaction
    (all or nothing: a refusal leaves the link unused); what it did, and for an address change
    the address to send the next link to ("" otherwise).

    ``player_id`` and ``session`` are who the browser is signed in as. Raises
    :class:`LinkRefused`, :class:`NotYours` or :class:`AddressTaken`.
    """
    found = peek_with_owner(connection, token)
    if found is None:
        raise LinkRefused("unknown")
    link, owner = found
    purpose = Purpose(link.purpose)
    if purpose in _OWN_ACCOUNT and player_id != link.player_id:
        raise NotYours(purpose)
    use(connection, token, link, now)
    if owner is None or owner.deleted_at is not None:
        raise LinkRefused("unknown")
    if purpose is Purpose.LINK_EMAIL:
        set_email(connection, owner.id, link.email)
        return Confirmed(purpose, owner.id, _rotated(connection, owner.id, session, at, device)), ""
    if purpose is Purpose.CHANGE_EMAIL:
        if not link.email:
            set_email(connection, owner.id, None)
        return Confirmed(purpose, owner.id, None), link.email
    if purpose is Purpose.DELETE_ACCOUNT:
        delete_account(connection, owner.id, at)
        return Confirmed(purpose, None, None), ""
    # Sign in: this browser now belongs to the owner; a guest it held joins the account.
    merged = 0
    if player_id is not None and player_id != owner.id:
        merged = merge_guest(connection, player_id, owner.id, at)
    return (
        Confirmed(purpose, owner.id, _rotated(connection, owner.id, session, at, device), merged),
        "",
    )


def _rotated(
    connection: Connection, player_id: str, session: str | None, at: datetime, device: str
) -> str:
    """A fresh session token for this browser (the one it had stops working at once)."""
    if session is not None:
        end_token(connection, session)
    return open_session(connection, player_id, at, device)


# -- the account's own data -------------------------------------------------------------------


def export(connection: Connection, player_id: str) -> dict[str, Any]:
    """Everything stored about the account, read in one transaction: the account's row, its
    sessions (without the tokens' hashes), ledger, cosmetics, rated matches and rooms."""
    player = player_row(connection, player_id)
    assert player is not None
    ledger = connection.execute(
        select(_LEDGER).where(_LEDGER.c.player_id == player_id).order_by(_LEDGER.c.id)
    ).all()
    ratings = connection.execute(
        select(_RATED).where(or_(_RATED.c.winner_id == player_id, _RATED.c.loser_id == player_id))
    ).all()
    seats = connection.execute(
        select(
            _ROOMS.c.code, _ROOMS.c.kind, _ROOMS.c.match_id, _ROOMS.c.seat0_id, _ROOMS.c.seat1_id
        ).where(or_(_ROOMS.c.seat0_id == player_id, _ROOMS.c.seat1_id == player_id))
    ).all()
    return {
        "account": {
            "id": player.id,
            "name": player.name,
            "created_at": player.created_at,
            "email": player.email,
            "coins": player.coins,
            "rating": player.rating,
            "experience": player.experience,
            "checkin_streak": player.checkin_streak,
            "checkin_day": player.checkin_day,
            "board": player.board,
            "checkers": player.checkers,
            "access": player.access,
        },
        "sessions": [
            {k: v for k, v in row.items() if k != "token_hash"}
            for row in sessions_of(connection, player_id)
        ],
        "ledger": [dict(row._mapping) for row in ledger],
        "owned": sorted(owned(connection, player_id)),
        "rated_matches": [dict(row._mapping) for row in ratings],
        "rooms": [
            {
                "room": row.code,
                "kind": row.kind,
                "match_id": row.match_id,
                "seat": 0 if row.seat0_id == player_id else 1,
            }
            for row in seats
        ],
    }
