"""Web Push's transactions: the site's VAPID key, the browsers' subscriptions, the pushes due.

Each function runs inside the caller's transaction (``Database.write`` or ``Database.read``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import cast

from sqlalchemy import Table, and_, delete, exists, insert, select, update
from sqlalchemy.engine import Connection

from bidak.server.accounts.tables import SessionRow
from bidak.server.notifications.choice_queries import forget as forget_choices
from bidak.server.notifications.tables import (
    NotificationRow,
    PushDueRow,
    PushKeyRow,
    PushSubscriptionRow,
)

_KEYS = cast(Table, PushKeyRow.__table__)
_SUBS = cast(Table, PushSubscriptionRow.__table__)
_DUE = cast(Table, PushDueRow.__table__)
_NOTES = cast(Table, NotificationRow.__table__)
_SESSIONS = cast(Table, SessionRow.__table__)

VAPID = "vapid"
"""The key pair's name in ``push_keys``."""


# -- the VAPID key --------------------------------------------------------------------------------


def vapid_key(connection: Connection) -> str | None:
    """The stored private key (base64url), if a process made one."""
    found = connection.execute(select(_KEYS.c.private_key).where(_KEYS.c.name == VAPID)).first()
    return None if found is None else str(found[0])


def store_vapid_key(connection: Connection, private_key: str, at: float) -> None:
    """Store the site's key (``IntegrityError`` when another process stored one first)."""
    connection.execute(insert(_KEYS).values(name=VAPID, private_key=private_key, at=at))


# -- subscriptions --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NewSubscription:
    endpoint: str
    endpoint_hash: str
    p256dh: str
    auth: str
    language: str


def subscribe(
    connection: Connection,
    new: NewSubscription,
    player_id: str,
    session_hash: str,
    at: float,
    cap: int,
) -> None:
    """Keep the browser subscription ``new`` for ``player_id`` in the session ``session_hash``
    (one registered before, by anybody, is taken over: the browser holds it now; its pushes
    still due go, being another player's); past ``cap`` of the player's, their oldest go.
    ``IntegrityError`` when another request stored the same endpoint meanwhile."""
    values = {
        "endpoint": new.endpoint,
        "p256dh": new.p256dh,
        "auth": new.auth,
        "player_id": player_id,
        "session_hash": session_hash,
        "language": new.language,
        "at": at,
    }
    found = connection.execute(
        select(_SUBS.c.id, _SUBS.c.player_id).where(_SUBS.c.endpoint_hash == new.endpoint_hash)
    ).first()
    if found is None:
        connection.execute(insert(_SUBS).values(endpoint_hash=new.endpoint_hash, **values))
    else:
        if found.player_id != player_id:
            connection.execute(delete(_DUE).where(_DUE.c.subscription_id == found.id))
        connection.execute(update(_SUBS).where(_SUBS.c.id == found.id).values(**values))
    kept = connection.execute(
        select(_SUBS.c.id)
        .where(_SUBS.c.player_id == player_id)
        .order_by(_SUBS.c.at.desc(), _SUBS.c.id.desc())
    ).all()
    for row in kept[cap:]:
        _drop(connection, int(row.id))


def unsubscribe(connection: Connection, player_id: str, endpoint_hash: str) -> bool:
    """Drop the player's subscription of that endpoint; False when they have none such."""
    found = connection.execute(
        select(_SUBS.c.id).where(
            _SUBS.c.endpoint_hash == endpoint_hash, _SUBS.c.player_id == player_id
        )
    ).first()
    if found is None:
        return False
    _drop(connection, int(found.id))
    return True


def _drop(connection: Connection, subscription_id: int) -> None:
    connection.execute(delete(_DUE).where(_DUE.c.subscription_id == subscription_id))
    connection.execute(delete(_SUBS).where(_SUBS.c.id == subscription_id))


def drop(connection: Connection, subscription_id: int) -> None:
    """The push service said the subscription is gone (404, 410): it goes, with its pushes."""
    _drop(connection, subscription_id)


def _session_alive() -> object:
    return exists().where(
        _SESSIONS.c.token_hash == _SUBS.c.session_hash,
        _SESSIONS.c.player_id == _SUBS.c.player_id,
    )


def live(connection: Connection, player_id: str) -> list[int]:
    """The player's subscriptions whose session is still signed in (the others are dropped:
    signed out there, or everywhere)."""
    rows = connection.execute(
        select(_SUBS.c.id, _session_alive().label("alive")).where(  # type: ignore[attr-defined]
            _SUBS.c.player_id == player_id
        )
    ).all()
    for row in rows:
        if not row.alive:
            _drop(connection, int(row.id))
    return [int(row.id) for row in rows if row.alive]


def count(connection: Connection, player_id: str) -> int:
    """How many subscriptions the player has (signed in or not yet found out)."""
    return len(connection.execute(select(_SUBS.c.id).where(_SUBS.c.player_id == player_id)).all())


# -- pushes due ---------------------------------------------------------------------------------


def add_due(
    connection: Connection,
    key: str,
    player_id: str,
    kind: str,
    room: str | None,
    due: float,
) -> int:
    """A push of the notification ``key`` to each of the player's live subscriptions at
    ``due``; how many."""
    ids = live(connection, player_id)
    for subscription_id in ids:
        connection.execute(
            insert(_DUE).values(
                key=key,
                subscription_id=subscription_id,
                player_id=player_id,
                kind=kind,
                room=room,
                due=due,
                tries=0,
            )
        )
    return len(ids)


def overdue(connection: Connection, now: float, limit: int = 100) -> list[tuple[int, float]]:
    """Pushes due by ``now`` (id, due), the earliest first."""
    rows = connection.execute(
        select(_DUE.c.id, _DUE.c.due).where(_DUE.c.due <= now).order_by(_DUE.c.due).limit(limit)
    ).all()
    return [(int(r.id), float(r.due)) for r in rows]


def next_due(connection: Connection) -> float | None:
    found = connection.execute(select(_DUE.c.due).order_by(_DUE.c.due).limit(1)).first()
    return None if found is None else float(found[0])


@dataclass(frozen=True, slots=True)
class Taken:
    """A push this process holds for :data:`~.push_rules.LEASE_SECONDS`, with what decides
    whether it still goes."""

    id: int
    key: str
    player_id: str
    kind: str
    room: str | None
    tries: int
    subscription_id: int
    endpoint: str
    p256dh: str
    auth: str
    language: str
    unread: bool
    """The notification is still unread (read in the page: no push)."""
    signed_in: bool
    """The subscription is still the player's, in a session still signed in."""


def take(connection: Connection, due_id: int, now: float, lease: float) -> Taken | None:
    """Hold the push ``due_id`` if it is due and nobody holds it (None: not due, or another
    process took it, or it is gone)."""
    taken = connection.execute(
        update(_DUE).where(_DUE.c.id == due_id, _DUE.c.due <= now).values(due=now + lease)
    )
    if taken.rowcount != 1:
        return None
    row = connection.execute(
        select(
            _DUE,
            _SUBS.c.endpoint,
            _SUBS.c.p256dh,
            _SUBS.c.auth,
            _SUBS.c.language,
            _SUBS.c.player_id.label("holder"),
            _session_alive().label("alive"),  # type: ignore[attr-defined]
        )
        .select_from(_DUE.outerjoin(_SUBS, _SUBS.c.id == _DUE.c.subscription_id))
        .where(_DUE.c.id == due_id)
    ).first()
    if row is None:  # pragma: no cover - updated a moment ago in this transaction
        return None
    unread = connection.execute(
        select(_NOTES.c.id).where(and_(_NOTES.c.key == row.key, _NOTES.c.read.is_(False)))
    ).first()
    return Taken(
        id=int(row.id),
        key=str(row.key),
        player_id=str(row.player_id),
        kind=str(row.kind),
        room=row.room,
        tries=int(row.tries),
        subscription_id=int(row.subscription_id),
        endpoint=str(row.endpoint or ""),
        p256dh=str(row.p256dh or ""),
        auth=str(row.auth or ""),
        language=str(row.language or "en"),
        unread=unread is not None,
        signed_in=row.holder == row.player_id and bool(row.alive),
    )


def done(connection: Connection, due_id: int) -> None:
    """The push was sent, given up or is not needed."""
    connection.execute(delete(_DUE).where(_DUE.c.id == due_id))


def again(connection: Connection, due_id: int, due: float, tries: int) -> None:
    """The push failed ``tries`` times: try again at ``due``."""
    connection.execute(update(_DUE).where(_DUE.c.id == due_id).values(due=due, tries=tries))


# -- an account deleted ---------------------------------------------------------------------------


def forget(connection: Connection, player_id: str, at: datetime) -> None:
    """Everything the notifications keep about the player goes: the pushes due, the browsers'
    subscriptions, the settings and the notifications themselves (an account deleted:
    :mod:`bidak.server.shared.store.player_steps`)."""
    connection.execute(delete(_DUE).where(_DUE.c.player_id == player_id))
    connection.execute(delete(_SUBS).where(_SUBS.c.player_id == player_id))
    connection.execute(delete(_NOTES).where(_NOTES.c.player_id == player_id))
    forget_choices(connection, player_id, at)
