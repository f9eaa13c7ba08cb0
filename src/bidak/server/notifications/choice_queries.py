"""A player's notification settings: per kind and channel, what they chose.

Each function runs inside the caller's transaction (``Database.write`` or ``Database.read``).
"""

from __future__ import annotations

from datetime import datetime
from typing import cast

from sqlalchemy import Table, and_, delete, insert, select, update
from sqlalchemy.engine import Connection

from bidak.server.notifications.tables import NotifyChoiceRow

_CHOICES = cast(Table, NotifyChoiceRow.__table__)


def chosen(connection: Connection, player_id: str) -> dict[tuple[str, str], bool]:
    """What the player changed from the defaults: ``(kind, channel) -> wanted``."""
    rows = connection.execute(
        select(_CHOICES.c.kind, _CHOICES.c.channel, _CHOICES.c.wanted).where(
            _CHOICES.c.player_id == player_id
        )
    )
    return {(str(r.kind), str(r.channel)): bool(r.wanted) for r in rows}


def choose(connection: Connection, player_id: str, kind: str, channel: str, wanted: bool) -> None:
    """Keep the player's choice for ``kind`` on ``channel`` (a second call overwrites it)."""
    where = and_(
        _CHOICES.c.player_id == player_id,
        _CHOICES.c.kind == kind,
        _CHOICES.c.channel == channel,
    )
    changed = connection.execute(update(_CHOICES).where(where).values(wanted=wanted))
    if changed.rowcount == 0:
        connection.execute(
            insert(_CHOICES).values(player_id=player_id, kind=kind, channel=channel, wanted=wanted)
        )


def forget(connection: Connection, player_id: str, at: datetime) -> None:
    """The player's choices go (an account deleted)."""
    connection.execute(delete(_CHOICES).where(_CHOICES.c.player_id == player_id))
