"""Accounts' transactions: one-time e-mail links, addresses, sessions, merging and deleting.

Each function runs on a connection inside ``Database.write`` (or ``read``). A link's token is
never stored, only its SHA-256; using a link is one conditional update (unused, unexpired), so a
link opened twice at once works once.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, delete, insert, or_, select, update
from sqlalchemy.engine import Connection

from bidak.economy import Reason
from bidak.server.store.models import (
    EmailLinkRow,
    MatchRow,
    OwnedRow,
    PlayerRow,
    QueueRow,
    RoomRow,
    SessionRow,
)
from bidak.server.store.repo import new_session as new_session_row
from bidak.server.store.repo import token_hash
from bidak.server.wallet.queries import append_entry, locked_purse

_PLAYERS = cast(Table, PlayerRow.__table__)
_SESSIONS = cast(Table, SessionRow.__table__)
_LINKS = cast(Table, EmailLinkRow.__table__)
_ROOMS = cast(Table, RoomRow.__table__)
_MATCHES = cast(Table, MatchRow.__table__)
_OWNED = cast(Table, OwnedRow.__table__)
_QUEUE = cast(Table, QueueRow.__table__)

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
            created_at=now,
            expires_at=now + seconds,
            used_at=None,
        )
    )
    return token


def peek(connection: Connection, token: str) -> Link | None:
    row = connection.execute(select(_LINKS).where(_LINKS.c.token_hash == token_hash(token))).first()
    if row is None:
        return None
    return Link(row.purpose, row.player_id, row.email, row.expires_at, row.used_at)


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


# -- sessions -------------------------------------------------------------------------------


def new_session(connection: Connection, player_id: str, at: datetime, device: str) -> str:
    """A new signed-in browser for ``player_id``; the cookie token (only its hash is kept)."""
    token, row = new_session_row(player_id, at, device)
    connection.execute(
        insert(_SESSIONS).values(**{c.key: getattr(row, c.key) for c in _SESSIONS.c})
    )
    return token


def sessions_of(connection: Connection, player_id: str) -> list[dict[str, Any]]:
    rows = connection.execute(
        select(_SESSIONS)
        .where(_SESSIONS.c.player_id == player_id)
        .order_by(_SESSIONS.c.created_at.desc())
    )
    return [dict(row._mapping) for row in rows]


def end_session(connection: Connection, player_id: str, session_id: str) -> bool:
    ended = connection.execute(
        delete(_SESSIONS).where(_SESSIONS.c.player_id == player_id, _SESSIONS.c.id == session_id)
    )
    return bool(ended.rowcount)


def end_token(connection: Connection, token: str) -> None:
    connection.execute(delete(_SESSIONS).where(_SESSIONS.c.token_hash == token_hash(token)))


def end_all(connection: Connection, player_id: str) -> int:
    ended = connection.execute(delete(_SESSIONS).where(_SESSIONS.c.player_id == player_id))
    return int(ended.rowcount)


def seen(connection: Connection, token: str, now: float, device: str) -> None:
    connection.execute(
        update(_SESSIONS)
        .where(_SESSIONS.c.token_hash == token_hash(token))
        .values(last_seen=now, device=device)
    )


# -- a guest's history joins the account it signs in to ---------------------------------------


def merge_guest(connection: Connection, guest_id: str, into_id: str, at: datetime) -> int:
    """Move a guest's finished matches (not those against ``into_id`` itself), coins and
    cosmetics to ``into_id`` and retire the guest; how many matches moved. A guest with an
    e-mail, or already retired, keeps everything (0)."""
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
    connection.execute(delete(_QUEUE).where(_QUEUE.c.player_id == guest_id))
    connection.execute(
        update(_PLAYERS).where(_PLAYERS.c.id == guest_id).values(merged_into=into_id)
    )
    return moved


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
    connection.execute(delete(_SESSIONS).where(_SESSIONS.c.player_id == player_id))
    connection.execute(delete(_QUEUE).where(_QUEUE.c.player_id == player_id))
    connection.execute(delete(_LINKS).where(_LINKS.c.player_id == player_id))
    connection.execute(
        update(_PLAYERS)
        .where(_PLAYERS.c.id == player_id)
        .values(name=DELETED_NAME, email=None, deleted_at=at, board=None, checkers=None)
    )
