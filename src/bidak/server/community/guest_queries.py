"""Community's part of a guest signing in (:mod:`bidak.server.shared.store.player_steps`): the PR of
the guest's reviewed matches joins the account (a match the account has a PR for keeps it)."""

from __future__ import annotations

from typing import cast

from sqlalchemy import Table
from sqlalchemy.engine import Connection

from bidak.server.community.tables import ReviewedRow
from bidak.server.shared.store.player_steps import GuestMerge
from bidak.server.shared.store.rows import move_rows

_REVIEWED = cast(Table, ReviewedRow.__table__)


def merge_reviewed(connection: Connection, merge: GuestMerge) -> int:
    move_rows(connection, _REVIEWED, "player_id", merge.guest_id, merge.into_id, same="match_id")
    return 0
