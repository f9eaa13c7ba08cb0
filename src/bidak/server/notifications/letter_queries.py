"""E-mail notifications' transactions: who gets today's digest, and the decision to send a
letter, kept under its unique key with the address it goes to read in the same transaction.

Each function runs inside the caller's transaction (``Database.write`` or ``Database.read``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from sqlalchemy import (
    Select,
    String,
    Table,
    and_,
    bindparam,
    delete,
    exists,
    insert,
    literal,
    or_,
    select,
)
from sqlalchemy.engine import Connection
from sqlalchemy.sql.elements import ColumnElement

from bidak.server.notifications.tables import LetterSentRow, NotifyChoiceRow
from bidak.server.shared.store.models import PlayerRow

_SENT = cast(Table, LetterSentRow.__table__)
_CHOICES = cast(Table, NotifyChoiceRow.__table__)
_PLAYERS = cast(Table, PlayerRow.__table__)

KEEP_SECONDS = 31 * 86_400.0
"""How long a letter's key is kept: far past the day of a digest or the decision of a "time
almost up" letter, after which nothing could send it again."""

EMAIL = "email"


def digest_key(player_id: str, day: str) -> str:
    """The key of ``player_id``'s digest of ``day`` (an ISO date)."""
    return f"digest:{player_id}:{day}"


def _wanted(kind: str, default: bool) -> ColumnElement[bool]:
    """The player (``players.id``) wants ``kind`` by e-mail: their choice, else the default."""
    choice = and_(
        _CHOICES.c.player_id == _PLAYERS.c.id,
        _CHOICES.c.kind == kind,
        _CHOICES.c.channel == EMAIL,
    )
    chose_yes = exists(select(_CHOICES.c.player_id).where(choice, _CHOICES.c.wanted.is_(True)))
    if not default:
        return chose_yes
    chose = exists(select(_CHOICES.c.player_id).where(choice))
    return or_(chose_yes, ~chose)


def _reachable() -> ColumnElement[bool]:
    return and_(_PLAYERS.c.email.is_not(None), _PLAYERS.c.deleted_at.is_(None))


def _digest_due(default: bool) -> Select[tuple[str]]:
    key = literal("digest:") + _PLAYERS.c.id + literal(":") + bindparam("day", type_=String)
    sent = exists(select(_SENT.c.key).where(_SENT.c.key == key))
    return (
        select(_PLAYERS.c.id)
        .where(_reachable(), _wanted("turn", default), ~sent)
        .order_by(_PLAYERS.c.id)
    )


_DIGEST_DUE = {default: _digest_due(default) for default in (False, True)}
"""Built once, the day bound when run: this statement built anew left a reference cycle of 32
objects each time it ran, and the server's cyclic collector is off
(:mod:`bidak.server.shared.collector`)."""


def digest_due(connection: Connection, day: str, default: bool) -> list[str]:
    """The players who want the digest by e-mail, have a linked address and have not been
    sent ``day``'s digest (the e-mail channel's default is ``default``)."""
    rows = connection.execute(_DIGEST_DUE[default], {"day": day})
    return [str(row.id) for row in rows]


@dataclass(frozen=True, slots=True)
class Recipient:
    """Where a letter just decided goes, and the name it greets."""

    email: str
    name: str


def claim(
    connection: Connection, *, key: str, player_id: str, kind: str, at: float, default: bool
) -> Recipient | None:
    """Decide to send the letter ``key`` to ``player_id``: None (nothing stored) when they have
    no address now or no longer want ``kind`` by e-mail; else the key is stored (one already
    stored raises ``IntegrityError``: another process or an earlier try sent it)."""
    row = connection.execute(
        select(_PLAYERS.c.email, _PLAYERS.c.name).where(
            _PLAYERS.c.id == player_id, _reachable(), _wanted(kind, default)
        )
    ).first()
    if row is None:
        return None
    connection.execute(insert(_SENT).values(key=key, player_id=player_id, kind=kind, at=at))
    return Recipient(str(row.email), str(row.name))


def prune(connection: Connection, now: float) -> None:
    """Forget the keys of letters older than :data:`KEEP_SECONDS`."""
    connection.execute(delete(_SENT).where(_SENT.c.at < now - KEEP_SECONDS))
