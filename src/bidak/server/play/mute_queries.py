"""Mutes: a player no longer hears another's table talk, and quick match never pairs the two
(the queue reads the same table in ``bidak.server.matchmaking``)."""

from __future__ import annotations

from datetime import datetime
from typing import cast

from sqlalchemy import Table, delete, insert, select
from sqlalchemy.engine import Connection

from bidak.server.friends import blocked_either
from bidak.server.play.tables import MuteRow

_MUTES = cast(Table, MuteRow.__table__)


def mute(connection: Connection, player_id: str, muted_id: str, at: datetime) -> None:
    """Note that ``player_id`` muted ``muted_id`` (muting twice keeps the first)."""
    exists = connection.execute(
        select(_MUTES.c.player_id).where(
            _MUTES.c.player_id == player_id, _MUTES.c.muted_id == muted_id
        )
    ).first()
    if exists is None:
        connection.execute(insert(_MUTES).values(player_id=player_id, muted_id=muted_id, at=at))


def unmute(connection: Connection, player_id: str, muted_id: str) -> None:
    """Undo :func:`mute` (harmless when there is nothing to undo)."""
    connection.execute(
        delete(_MUTES).where(_MUTES.c.player_id == player_id, _MUTES.c.muted_id == muted_id)
    )


def muted_by(connection: Connection, player_id: str) -> set[str]:
    """The ids of the players ``player_id`` muted."""
    rows = connection.execute(select(_MUTES.c.muted_id).where(_MUTES.c.player_id == player_id))
    return {row.muted_id for row in rows}


def silenced(connection: Connection, player_id: str) -> set[str]:
    """The players whose table talk ``player_id`` does not hear: muted by them, and blocked
    either way (``bidak.server.friends``)."""
    return muted_by(connection, player_id) | blocked_either(connection, player_id)
