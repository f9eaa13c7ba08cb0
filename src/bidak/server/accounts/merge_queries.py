"""A guest's history joins the account it signs in to, in the sign-in's transaction
(:func:`bidak.server.accounts.queries.confirm`): each capability moves its own rows (finished
matches, coins and cosmetics, training, reviewed matches' figures, the restrictions moderators
set, the queue) through the steps it handed in (:mod:`bidak.server.shared.store.player_steps`), and
the guest is retired."""

from __future__ import annotations

from datetime import datetime
from typing import cast

from sqlalchemy import Table, select, update
from sqlalchemy.engine import Connection

from bidak.server.shared.store.models import PlayerRow
from bidak.server.shared.store.player_steps import GuestMerge, PlayerSteps

_PLAYERS = cast(Table, PlayerRow.__table__)


def merge_guest(
    connection: Connection, guest_id: str, into_id: str, at: datetime, steps: PlayerSteps
) -> int:
    """Move a guest's finished matches (not those against ``into_id`` itself), coins,
    cosmetics, training and restrictions to ``into_id`` and retire the guest; how many matches
    moved. A guest with an e-mail, or already retired, keeps everything (0). The guest's row is
    locked first and its coins move under keys of the merge, so a merge made twice moves
    everything once."""
    guest = connection.execute(
        select(_PLAYERS).where(_PLAYERS.c.id == guest_id).with_for_update()
    ).first()
    if guest is None or guest.email is not None or guest.merged_into is not None:
        return 0
    moved = steps.merge(connection, GuestMerge(guest, into_id, at))
    connection.execute(
        update(_PLAYERS)
        .where(_PLAYERS.c.id == guest_id)
        .values(merged_into=into_id, skeleton=None)  # its name is free for the account
    )
    return moved
