"""The wallet's transactions: each appends one ledger entry and moves the cached balance in the
same transaction, under a unique idempotency key, or changes nothing.

Each function takes a connection inside :meth:`bidak.server.shared.store.db.Database.write`'s
transaction. The player's row is read ``FOR UPDATE`` (PostgreSQL; SQLite has one writer at a
time), so concurrent requests for one account take turns; the ledger's unique key is the second
line of defence: a request that loses a race on its key raises ``IntegrityError``, its whole
transaction is rolled back (``Database.write_keyed`` raises ``KeyTaken`` then), and the service
answers with what the first one stored.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import Any, cast

from sqlalchemy import Table, func, insert, select, update
from sqlalchemy.engine import Connection

from bidak.economy import WELCOME_GIFT, CheckIn, Reason, check_in, debit
from bidak.server.shared.store.models import PlayerRow
from bidak.server.wallet.tables import LedgerRow, OwnedRow

_PLAYERS = cast(Table, PlayerRow.__table__)
_LEDGER = cast(Table, LedgerRow.__table__)
_OWNED = cast(Table, OwnedRow.__table__)


class NoSuchPlayer(Exception):
    """There is no player with that id."""


class AlreadyOwned(Exception):
    """The player owns that item already (a purchase changes nothing)."""


@dataclass(frozen=True)
class Entry:
    """One ledger entry (see :class:`bidak.server.shared.store.models.LedgerRow`)."""

    id: int
    player_id: str
    amount: int
    reason: str
    key: str
    item: str | None
    note: str | None
    balance_after: int
    at: datetime


@dataclass(frozen=True)
class Purse:
    """A player's balance, check-in streak and looks."""

    balance: int
    streak: int
    checkin_day: date | None
    board: str | None
    checkers: str | None


_PURSE = select(
    _PLAYERS.c.coins,
    _PLAYERS.c.checkin_streak,
    _PLAYERS.c.checkin_day,
    _PLAYERS.c.board,
    _PLAYERS.c.checkers,
)
"""What a wallet is made of, in the player's row."""


def locked_purse(connection: Connection, player_id: str) -> dict[str, Any]:
    """The wallet's columns of the player's row, which stays locked (``FOR UPDATE``) until the
    caller's transaction ends; :class:`NoSuchPlayer` if there is none."""
    row = connection.execute(_PURSE.where(_PLAYERS.c.id == player_id).with_for_update()).first()
    if row is None:
        raise NoSuchPlayer(player_id)
    return dict(row._mapping)


def append_entry(
    connection: Connection,
    player_id: str,
    balance: int,
    amount: int,
    reason: Reason,
    key: str,
    at: datetime,
    item: str | None = None,
    note: str | None = None,
) -> Entry:
    """Append an entry and move the cached balance to match (``debit`` refuses to go below 0).

    ``balance`` is what :func:`locked_purse` read: the caller holds the player's row. ``key``
    is unique in the ledger: a key stored before raises ``IntegrityError`` (at the latest at
    the commit), and the caller's transaction must be rolled back whole."""
    after = debit(balance, amount)
    entry_id = connection.execute(
        insert(_LEDGER)
        .values(
            player_id=player_id,
            amount=amount,
            reason=reason.value,
            key=key,
            item=item,
            note=note,
            balance_after=after,
            at=at,
        )
        .returning(_LEDGER.c.id)
    ).scalar_one()
    moved = connection.execute(
        update(_PLAYERS)
        .where(_PLAYERS.c.id == player_id, _PLAYERS.c.coins == balance)
        .values(coins=after)
    )
    if moved.rowcount != 1:  # pragma: no cover - the row is locked or the writer is alone
        raise RuntimeError(f"the balance of {player_id} moved under a locked row")
    return Entry(entry_id, player_id, amount, reason.value, key, item, note, after, at)


def purse(connection: Connection, player_id: str) -> Purse:
    """The player's purse as it is (no lock); :class:`NoSuchPlayer` if there is none."""
    row = connection.execute(_PURSE.where(_PLAYERS.c.id == player_id)).first()
    if row is None:
        raise NoSuchPlayer(player_id)
    return _purse(dict(row._mapping))


def _purse(row: dict[str, Any]) -> Purse:
    day = row["checkin_day"]
    return Purse(
        row["coins"],
        row["checkin_streak"],
        date.fromisoformat(day) if day else None,
        row["board"],
        row["checkers"],
    )


def do_check_in(
    connection: Connection, player_id: str, key_prefix: str, today: date, at: datetime
) -> tuple[CheckIn, int, int]:
    """Today's check-in (at most one credit per site day), the welcome gift credited with it
    (the account's first check-in; 0 otherwise) and the balance after them."""
    row = locked_purse(connection, player_id)
    current = _purse(row)
    done = check_in(today, current.checkin_day, current.streak)
    if done.already:
        return done, current.balance, 0
    welcome = 0
    if current.checkin_day is None and entry_by_key(connection, f"{key_prefix}:welcome") is None:
        welcome = WELCOME_GIFT
        gift = append_entry(
            connection,
            player_id,
            current.balance,
            welcome,
            Reason.WELCOME,
            f"{key_prefix}:welcome",
            at,
            note="welcome gift",
        )
        current = replace(current, balance=gift.balance_after)
    entry = append_entry(
        connection,
        player_id,
        current.balance,
        done.coins,
        Reason.CHECKIN,
        f"{key_prefix}:{done.key}",
        at,
        note=f"day {done.streak}",
    )
    connection.execute(
        update(_PLAYERS)
        .where(_PLAYERS.c.id == player_id)
        .values(checkin_streak=done.streak, checkin_day=today.isoformat())
    )
    return done, entry.balance_after, welcome


class KeyReused(Exception):
    """An idempotency key already used for another purchase (another item or player)."""


def buy(
    connection: Connection, player_id: str, item: str, price: int, key: str, at: datetime
) -> tuple[Entry, bool]:
    """Pay ``price`` for ``item`` and own it: the entry, and whether an earlier request with
    the same ``key`` had made it (then nothing changes). Insufficient, AlreadyOwned and
    KeyReused change nothing."""
    row = locked_purse(connection, player_id)
    # Under the row's lock: a twin request that held it first has committed by now.
    first = entry_by_key(connection, key)
    if first is not None:
        if first.item != item or first.player_id != player_id:
            raise KeyReused(key)
        return first, True
    owned = connection.execute(
        select(_OWNED.c.item).where(_OWNED.c.player_id == player_id, _OWNED.c.item == item)
    ).first()
    if owned is not None:
        raise AlreadyOwned(item)
    entry = append_entry(
        connection, player_id, row["coins"], -price, Reason.PURCHASE, key, at, item=item
    )
    connection.execute(insert(_OWNED).values(player_id=player_id, item=item, entry_id=entry.id))
    return entry, False


def grant(
    connection: Connection, player_id: str, amount: int, note: str, key: str, at: datetime
) -> Entry:
    """An operator's credit (or, negative, a correction), with the reason written down."""
    row = locked_purse(connection, player_id)
    return append_entry(
        connection, player_id, row["coins"], amount, Reason.GRANT, key, at, note=note
    )


def equip(connection: Connection, player_id: str, board: str | None, checkers: str | None) -> None:
    """Set the player's board and checkers (None: the default); ownership is the caller's check."""
    connection.execute(
        update(_PLAYERS).where(_PLAYERS.c.id == player_id).values(board=board, checkers=checkers)
    )


def entry_by_key(connection: Connection, key: str) -> Entry | None:
    """The entry stored under idempotency key ``key``, or None."""
    row = connection.execute(select(_LEDGER).where(_LEDGER.c.key == key)).first()
    return None if row is None else Entry(**row._mapping)


def entries(connection: Connection, player_id: str, limit: int = 50) -> list[Entry]:
    """The player's newest ledger entries first."""
    rows = connection.execute(
        select(_LEDGER)
        .where(_LEDGER.c.player_id == player_id)
        .order_by(_LEDGER.c.id.desc())
        .limit(limit)
    )
    return [Entry(**row._mapping) for row in rows]


def ledger_sum(connection: Connection, player_id: str) -> int:
    """The sum of the player's ledger entries (what the cached balance must equal)."""
    total = connection.execute(
        select(func.coalesce(func.sum(_LEDGER.c.amount), 0)).where(_LEDGER.c.player_id == player_id)
    ).scalar_one()
    return int(total)


def owned(connection: Connection, player_id: str) -> set[str]:
    """The cosmetics the player bought (the free ones are not listed)."""
    rows = connection.execute(select(_OWNED.c.item).where(_OWNED.c.player_id == player_id))
    return {row.item for row in rows}
