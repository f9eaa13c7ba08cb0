"""Quick match's part of a guest signing in and of an account deleted
(:mod:`bidak.server.shared.store.player_steps`): the player's place in the queue goes."""

from __future__ import annotations

from datetime import datetime
from typing import cast

from sqlalchemy import Table, delete
from sqlalchemy.engine import Connection

from bidak.server.matchmaking.tables import QueueRow
from bidak.server.shared.store.player_steps import GuestMerge

_QUEUE = cast(Table, QueueRow.__table__)


def leave_queue(connection: Connection, player_id: str) -> None:
    """The player stops waiting for a quick match (a ban, a merge, a deletion)."""
    connection.execute(delete(_QUEUE).where(_QUEUE.c.player_id == player_id))


def merge_queue(connection: Connection, merge: GuestMerge) -> int:
    leave_queue(connection, merge.guest_id)
    return 0


def forget_queue(connection: Connection, player_id: str, at: datetime) -> None:
    leave_queue(connection, player_id)
