"""The wallet's part of a guest signing in and of an account's export
(:mod:`bidak.server.shared.store.player_steps`): the guest's coins and cosmetics join the account;
the export lists the ledger and the cosmetics owned."""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import Table, select, update
from sqlalchemy.engine import Connection

from bidak.economy import Reason
from bidak.server.shared.store.player_steps import GuestMerge
from bidak.server.wallet.queries import append_entry, locked_purse, owned
from bidak.server.wallet.tables import LedgerRow, OwnedRow

_LEDGER = cast(Table, LedgerRow.__table__)
_OWNED = cast(Table, OwnedRow.__table__)


def merge_wallet(connection: Connection, merge: GuestMerge) -> int:
    """The guest's balance moves as two ledger entries (through the wallet's one way of
    changing a balance), under keys of the merge, so it moves once only; its cosmetics the
    account does not own yet become the account's."""
    guest_id, into_id = merge.guest_id, merge.into_id
    coins = int(merge.guest.coins)
    if coins > 0:
        note = f"guest {guest_id[:8]} signed in to {into_id[:8]}"
        for player, amount in ((guest_id, -coins), (into_id, coins)):
            balance = locked_purse(connection, player)["coins"]
            key = f"{player}:merge:{guest_id}:{into_id}"
            append_entry(
                connection, player, balance, amount, Reason.MERGE, key, merge.at, note=note
            )
    mine = select(_OWNED.c.item).where(_OWNED.c.player_id == into_id)
    connection.execute(
        update(_OWNED)
        .where(_OWNED.c.player_id == guest_id, _OWNED.c.item.not_in(mine))
        .values(player_id=into_id)
    )
    return 0


def export_wallet(connection: Connection, player_id: str) -> dict[str, Any]:
    """The account's ledger, oldest first, and the cosmetics it owns."""
    ledger = connection.execute(
        select(_LEDGER).where(_LEDGER.c.player_id == player_id).order_by(_LEDGER.c.id)
    ).all()
    return {
        "ledger": [dict(row._mapping) for row in ledger],
        "owned": sorted(owned(connection, player_id)),
    }
