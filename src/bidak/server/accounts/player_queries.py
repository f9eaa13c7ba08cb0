"""Players and their browser sessions: the rows every capability reads to know who is asking.

A guest is a player row and its first session, stored in one transaction. A session is a random
cookie token of which only the SHA-256 is stored
(:func:`bidak.server.shared.store.rows.token_hash`): a copy of the database opens no session. The
functions that take a ``connection`` run inside the caller's
:meth:`~bidak.server.shared.store.db.Database.write` (or ``read``) transaction, so they compose
with other writes (a sign-in ends one session and opens another atomically); :class:`Players`
runs each of its reads and writes in a transaction of its own.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from functools import partial
from typing import Any, cast

from sqlalchemy import Table, bindparam, delete, insert, select, update
from sqlalchemy.engine import Connection

from bidak.server.accounts.devices import UNKNOWN
from bidak.server.accounts.guests import GUEST_TRIES, guest_name
from bidak.server.accounts.names import NameRefused, skeleton, taken
from bidak.server.accounts.tables import SessionRow
from bidak.server.shared.store.db import Database, KeyTaken
from bidak.server.shared.store.models import PlayerRow
from bidak.server.shared.store.player_steps import PlayerSteps
from bidak.server.shared.store.rows import new_id, token_hash
from bidak.training.glicko import Rating

_PLAYERS = cast(Table, PlayerRow.__table__)
_SESSIONS = cast(Table, SessionRow.__table__)
_BY_IDS = select(PlayerRow).where(PlayerRow.id.in_(bindparam("ids", expanding=True)))
"""Players by id: an ``in_`` built once, as every ``in_`` of a list (``docs/architecture.md``,
"Storage": one built per call leaves a reference cycle behind)."""
_SIGNED_IN = (
    select(SessionRow, PlayerRow)
    .join(PlayerRow, PlayerRow.id == SessionRow.player_id)
    .where(SessionRow.token_hash == bindparam("token_hash"))
)
"""A session and its player, in one round trip (every request and socket asks)."""

# -- inside a transaction ---------------------------------------------------------------------


def set_puzzle_rating(connection: Connection, player_id: str, rating: Rating) -> None:
    """The player's puzzle rating is ``rating`` from now on (an answer settled it, or a guest
    merged into the account had the surer one)."""
    connection.execute(
        update(_PLAYERS)
        .where(_PLAYERS.c.id == player_id)
        .values(
            puzzle_rating=rating.rating,
            puzzle_deviation=rating.deviation,
            puzzle_volatility=rating.volatility,
        )
    )


def player_row(connection: Connection, player_id: str) -> PlayerRow | None:
    """The player's row as it is now (deleted and merged accounts included), or None."""
    row = connection.execute(select(_PLAYERS).where(_PLAYERS.c.id == player_id)).first()
    return None if row is None else PlayerRow(**row._mapping)


def open_session(connection: Connection, player_id: str, at: datetime, device: str) -> str:
    """Store a new signed-in browser for ``player_id``; returns its cookie token (256 random
    bits, of which only the hash is stored)."""
    token = secrets.token_urlsafe(32)
    connection.execute(
        insert(_SESSIONS).values(
            token_hash=token_hash(token),
            player_id=player_id,
            created_at=at,
            id=new_id(),
            last_seen=at.timestamp(),
            device=device,
        )
    )
    return token


def sessions_of(connection: Connection, player_id: str) -> list[dict[str, Any]]:
    """The player's sessions, newest first, each as its row's columns (the token's hash
    included: callers compare it with their own and never show it)."""
    rows = connection.execute(
        select(_SESSIONS)
        .where(_SESSIONS.c.player_id == player_id)
        .order_by(_SESSIONS.c.created_at.desc())
    )
    return [dict(row._mapping) for row in rows]


def end_session(connection: Connection, player_id: str, session_id: str) -> str | None:
    """End the player's session named ``session_id``; its token's hash (to close its sockets),
    or None if they have none by that name (someone else's session is never ended)."""
    ended = connection.execute(
        delete(_SESSIONS)
        .where(_SESSIONS.c.player_id == player_id, _SESSIONS.c.id == session_id)
        .returning(_SESSIONS.c.token_hash)
    ).first()
    return None if ended is None else str(ended[0])


def end_token(connection: Connection, token: str) -> None:
    """End the session of a cookie token, if it still exists (ending it twice is harmless)."""
    connection.execute(delete(_SESSIONS).where(_SESSIONS.c.token_hash == token_hash(token)))


def end_all(connection: Connection, player_id: str) -> int:
    """End every session of the player; how many there were."""
    ended = connection.execute(delete(_SESSIONS).where(_SESSIONS.c.player_id == player_id))
    return int(ended.rowcount)


def seen(connection: Connection, token: str, now: float, device: str) -> None:
    """Note that the session of ``token`` was used at ``now`` from ``device``."""
    connection.execute(
        update(_SESSIONS)
        .where(_SESSIONS.c.token_hash == token_hash(token))
        .values(last_seen=now, device=device)
    )


def _create_guest(connection: Connection, player: PlayerRow, device: str) -> str:
    connection.execute(
        insert(_PLAYERS).values(
            id=player.id,
            name=player.name,
            skeleton=player.skeleton,
            created_at=player.created_at,
            coins=player.coins,
            rating=player.rating,
            experience=player.experience,
        )
    )
    return open_session(connection, player.id, player.created_at, device)


def _rename(
    connection: Connection, player_id: str, name: str, steps: PlayerSteps
) -> PlayerRow | None:
    """Rename; a name a moderator replaced on this player is refused again (``NameRefused``)."""
    replaced = steps.replaced_names(connection, player_id)
    if name.casefold() in {old.casefold() for old in replaced}:
        raise NameRefused("name_replaced", "A moderator replaced this name; choose another")
    key = skeleton(name)
    holder = connection.execute(
        select(_PLAYERS.c.id).where(_PLAYERS.c.skeleton == key, _PLAYERS.c.id != player_id)
    ).first()
    if holder is not None:
        raise taken()
    connection.execute(
        update(_PLAYERS).where(_PLAYERS.c.id == player_id).values(name=name, skeleton=key)
    )
    return player_row(connection, player_id)


def _set_access(connection: Connection, player_id: str, access: str | None) -> PlayerRow | None:
    connection.execute(update(_PLAYERS).where(_PLAYERS.c.id == player_id).values(access=access))
    return player_row(connection, player_id)


# -- a transaction each -----------------------------------------------------------------------


class Players:
    """The players' and sessions' reads and writes, each in one short transaction of its own
    (:class:`bidak.server.play.storage.Store` is one)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.player_steps = PlayerSteps()
        """What the other capabilities hand in (:mod:`bidak.server.shared.store.player_steps`);
        the app's wiring sets them."""

    async def create_guest(
        self, name: str | None = None, device: str = UNKNOWN
    ) -> tuple[PlayerRow, str]:
        """Store a new guest and its first session, in one transaction; the player and the
        session's cookie token. The guest is called ``name`` (``NameRefused`` ``name_taken``
        if another player's name reads the same), or by default a generated name, drawn again
        while it is taken (:func:`bidak.server.accounts.guests.guest_name`)."""
        for attempt in range(GUEST_TRIES):
            chosen = guest_name(attempt) if name is None else name
            player = PlayerRow(
                id=new_id(),
                name=chosen,
                skeleton=skeleton(chosen),
                created_at=datetime.now(UTC),
                coins=0,
                rating=1500.0,
                experience=0,
            )
            try:
                token = await self.db.write_keyed(
                    partial(_create_guest, player=player, device=device)
                )
            except KeyTaken:
                if name is not None:
                    raise taken() from None
                continue
            return player, token
        raise KeyTaken(f"no free guest name in {GUEST_TRIES} draws")

    async def session_for_token(self, token: str) -> tuple[SessionRow, PlayerRow] | None:
        """The session of a cookie token and its player; None for an unknown (or ended)
        token and for a deleted account."""
        wanted = {"token_hash": token_hash(token)}
        row = await self.db.rows(lambda session: session.execute(_SIGNED_IN, wanted).first())
        if row is None:
            return None
        found, player = row
        if player.deleted_at is not None:
            return None
        return found, player

    async def player_for_token(self, token: str) -> PlayerRow | None:
        """The player signed in with a cookie token (see :meth:`session_for_token`)."""
        found = await self.session_for_token(token)
        return None if found is None else found[1]

    async def player(self, player_id: str) -> PlayerRow | None:
        """The player's row, or None."""
        return await self.db.rows(lambda session: session.get(PlayerRow, player_id))

    async def players(self, ids: list[str]) -> dict[str, PlayerRow]:
        """The rows of the players among ``ids`` that exist, by id (empty ids are skipped)."""
        wanted = [i for i in ids if i]
        if not wanted:
            return {}
        rows = await self.db.rows(lambda session: list(session.scalars(_BY_IDS, {"ids": wanted})))
        return {row.id: row for row in rows}

    async def set_access(self, player_id: str, access: str | None) -> PlayerRow:
        """Store the player's accessibility settings (``players.access``); the row after it."""
        row = await self.db.write(partial(_set_access, player_id=player_id, access=access))
        if row is None:
            raise KeyError(player_id)
        return row

    async def rename(self, player_id: str, name: str) -> PlayerRow:
        """Store the player's new ``name`` (already checked by
        :func:`bidak.server.accounts.names.clean_name`); the row after it, or KeyError;
        ``NameRefused`` (``name_taken``) when another player's name reads the same, also when
        two renames to one name race (the unique skeleton lets one through)."""
        try:
            renamed = await self.db.write_keyed(
                partial(_rename, player_id=player_id, name=name, steps=self.player_steps)
            )
        except KeyTaken:  # another rename to the same name was stored first
            raise taken() from None
        if renamed is None:
            raise KeyError(player_id)
        return renamed
