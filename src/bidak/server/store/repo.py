"""Repositories: every read and write the server makes, each in one short transaction.

The rooms' and matches' queries live with the rooms (:class:`bidak.server.rooms.queries.
RoomStore`); :class:`Store` extends them with the players' and sessions', so the server holds one
store object.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, datetime
from functools import partial
from typing import cast

from sqlalchemy import Table, select, update
from sqlalchemy.engine import Connection

from bidak.server.rooms.queries import RoomStore
from bidak.server.store.models import PlayerRow, SessionRow
from bidak.server.store.rows import insert_rows as _insert
from bidak.server.store.rows import is_key as is_key
from bidak.server.store.rows import new_id as new_id


def _now() -> datetime:
    return datetime.now(UTC)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_session(player_id: str, at: datetime, device: str) -> tuple[str, SessionRow]:
    """A browser's new session for ``player_id``: the cookie token (256 random bits) and the
    row to store, which keeps only the token's hash."""
    token = secrets.token_urlsafe(32)
    row = SessionRow(
        token_hash=token_hash(token),
        player_id=player_id,
        created_at=at,
        id=secrets.token_hex(16),
        last_seen=at.timestamp(),
        device=device,
    )
    return token, row


class Store(RoomStore):
    """The server's store: rooms and matches (:class:`RoomStore`), players and sessions."""

    # -- players and sessions -------------------------------------------------------------------

    async def create_guest(
        self, name: str, device: str = "Unknown browser"
    ) -> tuple[PlayerRow, str]:
        """A new guest and the cookie token of its first session."""
        now = _now()
        player = PlayerRow(
            id=new_id(), name=name, created_at=now, coins=0, rating=1500.0, experience=0
        )
        token, session = new_session(player.id, now, device)
        await self.db.write(partial(_insert, rows=[player, session]))
        return player, token

    async def player_for_token(self, token: str) -> PlayerRow | None:
        found = await self.session_for_token(token)
        return None if found is None else found[1]

    async def session_for_token(self, token: str) -> tuple[SessionRow, PlayerRow] | None:
        """The session of a cookie token and its player (a deleted account has none)."""
        async with self.db.session() as session:
            found = await session.get(SessionRow, token_hash(token))
            if found is None:
                return None
            player = await session.get(PlayerRow, found.player_id)
            if player is None or player.deleted_at is not None:
                return None
            return found, player

    async def player(self, player_id: str) -> PlayerRow | None:
        async with self.db.session() as session:
            return await session.get(PlayerRow, player_id)

    async def players(self, ids: list[str]) -> dict[str, PlayerRow]:
        wanted = [i for i in ids if i]
        if not wanted:
            return {}
        async with self.db.session() as session:
            rows = await session.scalars(select(PlayerRow).where(PlayerRow.id.in_(wanted)))
            return {row.id: row for row in rows}

    async def rename(self, player_id: str, name: str) -> PlayerRow:
        renamed = await self.db.write(partial(_rename, player_id=player_id, name=name))
        if renamed is None:
            raise KeyError(player_id)
        return renamed


_PLAYERS = cast(Table, PlayerRow.__table__)


# Every write goes through Database.write, so a SQLite file has a single writer: a second
# connection waiting in SQLite's busy handler would lose the lock again and again to the
# busy game writer and fail after its timeout.


def _rename(connection: Connection, player_id: str, name: str) -> PlayerRow | None:
    connection.execute(update(_PLAYERS).where(_PLAYERS.c.id == player_id).values(name=name))
    found = connection.execute(select(_PLAYERS).where(_PLAYERS.c.id == player_id)).first()
    return None if found is None else PlayerRow(**found._asdict())
