"""Friends' part of a guest signing in, of an account deleted and of the account's export
(:mod:`bidak.server.shared.store.player_steps`).

- A guest signing in: whom the guest followed and blocked, the account now follows and blocks
  (not itself, and a pair the account has already stays as it is); follows of the guest by
  others stay on the retired guest. The guest's open challenges are cancelled: they were made
  by, or to, a player who no longer plays under that name.
- An account deleted: its follows and blocks, both ways, go; its open challenges are cancelled.
- The export: whom the account follows and blocks, and its challenges both ways.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, delete, or_, select, update
from sqlalchemy.engine import Connection

from bidak.challenges import State
from bidak.server.friends.tables import BlockRow, ChallengeRow, FollowRow
from bidak.server.shared.store.player_steps import GuestMerge
from bidak.server.shared.store.rows import move_rows

_FOLLOWS = cast(Table, FollowRow.__table__)
_BLOCKS = cast(Table, BlockRow.__table__)
_CHALLENGES = cast(Table, ChallengeRow.__table__)


def _cancel_open(connection: Connection, player_id: str, at: float) -> None:
    connection.execute(
        update(_CHALLENGES)
        .where(
            or_(_CHALLENGES.c.from_id == player_id, _CHALLENGES.c.to_id == player_id),
            _CHALLENGES.c.state == State.OPEN.value,
        )
        .values(state=State.CANCELLED.value, decided=at)
    )


def merge_friends(connection: Connection, merge: GuestMerge) -> int:
    guest_id, into_id = merge.guest_id, merge.into_id
    for table, me, other in (
        (_FOLLOWS, "follower_id", "followee_id"),
        (_BLOCKS, "blocker_id", "blocked_id"),
    ):
        # The account never follows or blocks itself.
        connection.execute(delete(table).where(table.c[me] == guest_id, table.c[other] == into_id))
        move_rows(connection, table, me, guest_id, into_id, same=other)
    _cancel_open(connection, guest_id, merge.at.timestamp())
    return 0


def forget_friends(connection: Connection, player_id: str, at: datetime) -> None:
    connection.execute(
        delete(_FOLLOWS).where(
            or_(_FOLLOWS.c.follower_id == player_id, _FOLLOWS.c.followee_id == player_id)
        )
    )
    connection.execute(
        delete(_BLOCKS).where(
            or_(_BLOCKS.c.blocker_id == player_id, _BLOCKS.c.blocked_id == player_id)
        )
    )
    _cancel_open(connection, player_id, at.timestamp())


def export_friends(connection: Connection, player_id: str) -> dict[str, Any]:
    follows = connection.execute(
        select(_FOLLOWS.c.followee_id, _FOLLOWS.c.at).where(_FOLLOWS.c.follower_id == player_id)
    ).all()
    blocks = connection.execute(
        select(_BLOCKS.c.blocked_id, _BLOCKS.c.at).where(_BLOCKS.c.blocker_id == player_id)
    ).all()
    challenges = connection.execute(
        select(_CHALLENGES)
        .where(or_(_CHALLENGES.c.from_id == player_id, _CHALLENGES.c.to_id == player_id))
        .order_by(_CHALLENGES.c.created)
    ).all()
    return {
        "follows": [{"player": row.followee_id, "at": row.at} for row in follows],
        "blocks": [{"player": row.blocked_id, "at": row.at} for row in blocks],
        "challenges": [dict(row._mapping) for row in challenges],
    }
