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

from sqlalchemy import Table, delete, insert, or_, select, update
from sqlalchemy.engine import Connection

from bidak.server.accounts.merge_queries import merge_guest
from bidak.server.accounts.player_queries import (
    end_all,
    end_token,
    open_session,
    player_row,
    sessions_of,
)
from bidak.server.mail import Purpose
from bidak.server.shared.forgetting import Forgetting
from bidak.server.shared.store.models import (
    EmailLinkRow,
    LedgerRow,
    PlayerRow,
    QueueRow,
    RatedMatchRow,
    RoomRow,
)
from bidak.server.shared.store.rows import token_hash
from bidak.server.wallet import owned

_PLAYERS = cast(Table, PlayerRow.__table__)
_LINKS = cast(Table, EmailLinkRow.__table__)
_ROOMS = cast(Table, RoomRow.__table__)
_QUEUE = cast(Table, QueueRow.__table__)
_LEDGER = cast(Table, LedgerRow.__table__)
_RATED = cast(Table, RatedMatchRow.__table__)

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


# -- deleting -------------------------------------------------------------------------------


def delete_account(
    connection: Connection, player_id: str, at: datetime, forgetting: Forgetting | None = None
) -> None:
    """Forget who the player was: name, address, sessions, looks and queue entry go, and what
    the capabilities above registered in ``forgetting`` (:mod:`bidak.server.shared.forgetting`);
    match records stay readable for the opponents, under the name "deleted player"."""
    if forgetting is not None:
        forgetting.run(connection, player_id)
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
    forgetting: Forgetting | None = None,
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
        delete_account(connection, owner.id, at, forgetting)
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
