"""The wallet's use cases: check in, look, buy, equip, and an operator's grant.

Every change goes through one transaction of :mod:`.queries`. When a transaction loses a race on
its idempotency key (the same request sent twice at once, or by two processes), it is rolled back
whole and the answer is what the first one stored: a retry never credits or charges twice.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import UTC, date, datetime
from functools import partial

from bidak.economy import MAX_GRANT, CheckIn, next_reward, site_day, streak_now
from bidak.economy import shop as catalogue
from bidak.server.shared.clocks import Clock
from bidak.server.shared.refusal import Refusal
from bidak.server.shared.store.db import Database, KeyTaken
from bidak.server.wallet import queries
from bidak.server.wallet.queries import Entry, Purse

CLIENT_KEY = re.compile(r"[A-Za-z0-9_-]{8,64}")
"""What an ``Idempotency-Key`` header may be (a UUID fits)."""


class WalletError(Refusal):
    """A refused wallet request (see :class:`Refusal`)."""


@dataclass(frozen=True)
class CheckInResult:
    check_in: CheckIn
    balance: int
    next_reward: int
    welcome: int = 0
    """The welcome gift credited with this check-in (the account's first), else 0."""


@dataclass(frozen=True)
class Purchase:
    entry: Entry
    replayed: bool


class Wallets:
    def __init__(self, db: Database, clock: Clock, zone: str) -> None:
        self.db = db
        self.clock = clock
        self.zone = zone

    def today(self) -> date:
        return site_day(self.clock.now(), self.zone)

    def _at(self) -> datetime:
        return datetime.fromtimestamp(self.clock.now(), UTC)

    async def purse(self, player_id: str) -> Purse:
        return await self.db.read(partial(queries.purse, player_id=player_id))

    async def check_in(self, player_id: str) -> CheckInResult:
        """Today's check-in; a second one the same site day credits nothing."""
        today = self.today()
        work = partial(
            queries.do_check_in,
            player_id=player_id,
            key_prefix=player_id,
            today=today,
            at=self._at(),
        )
        try:
            done, balance, welcome = await self.db.write_keyed(work)
        except KeyTaken:
            # Another request stored today's credit first (its key is taken): that one counts.
            done, balance, welcome = await self.db.write(work)
        # Checked in today (now or before): the next reward is tomorrow's.
        return CheckInResult(done, balance, next_reward(today, today, done.streak), welcome)

    def streak(self, purse: Purse) -> tuple[int, bool, int]:
        """The streak held today, whether today's check-in is done, and the next reward."""
        today = self.today()
        return (
            streak_now(today, purse.checkin_day, purse.streak),
            purse.checkin_day == today,
            next_reward(today, purse.checkin_day, purse.streak),
        )

    async def entries(self, player_id: str, limit: int = 50) -> list[Entry]:
        return await self.db.read(partial(queries.entries, player_id=player_id, limit=limit))

    async def owned(self, player_id: str) -> set[str]:
        bought = await self.db.read(partial(queries.owned, player_id=player_id))
        return bought | set(catalogue.FREE)

    async def buy(self, player_id: str, item_id: str, client_key: str) -> Purchase:
        """Buy ``item_id`` once per ``client_key``: a retry with the same key answers with the
        first purchase and charges nothing."""
        if not CLIENT_KEY.fullmatch(client_key):
            raise WalletError(
                "bad_key", "Idempotency-Key must be 8 to 64 letters, digits, '-' or '_'"
            )
        item = catalogue.item(item_id)
        if item is None:
            raise WalletError("not_found", "There is no such item in the shop")
        if item.id in catalogue.FREE:
            raise WalletError("owned", "Everybody owns this one already")
        work = partial(
            queries.buy,
            player_id=player_id,
            item=item.id,
            price=item.price,
            key=f"{player_id}:buy:{client_key}",
            at=self._at(),
        )
        for attempt in range(2):
            try:
                entry, replayed = await self.db.write_keyed(work)
            except KeyTaken:
                if attempt:
                    raise
                continue  # a twin request stored the same key meanwhile: answer with it
            except queries.KeyReused:
                raise WalletError(
                    "key_reused", "This Idempotency-Key was used for another purchase"
                ) from None
            except queries.AlreadyOwned:
                raise WalletError("owned", "You own this already") from None
            return Purchase(entry, replayed)
        raise AssertionError("unreachable")  # pragma: no cover

    async def equip(self, player_id: str, board: str | None, checkers: str | None) -> None:
        """Wear ``board`` and ``checkers`` (None: the default); each must be owned."""
        have = await self.owned(player_id)
        for wanted, kind in ((board, catalogue.Kind.BOARD), (checkers, catalogue.Kind.CHECKERS)):
            if wanted is None:
                continue
            item = catalogue.item(wanted)
            if item is None or item.kind is not kind:
                raise WalletError("not_found", f"There is no {kind.value} item {wanted!r}")
            if wanted not in have:
                raise WalletError("not_owned", "Buy it in the shop first")
        await self.db.write(
            partial(queries.equip, player_id=player_id, board=board, checkers=checkers)
        )

    async def grant(self, player_id: str, amount: int, note: str, key: str | None = None) -> Entry:
        """An operator's audited credit or correction; ``key`` makes a retried grant harmless."""
        if amount == 0 or abs(amount) > MAX_GRANT:
            raise WalletError("bad_amount", f"A grant is 1 to {MAX_GRANT} coins, or minus that")
        if not note.strip():
            raise WalletError("no_reason", "Say why (--reason): it is kept in the ledger")
        stored = f"{player_id}:grant:{key or secrets.token_hex(8)}"
        work = partial(
            queries.grant,
            player_id=player_id,
            amount=amount,
            note=note.strip()[:200],
            key=stored,
            at=self._at(),
        )
        try:
            return await self.db.write_keyed(work)
        except KeyTaken:
            first = await self.db.read(partial(queries.entry_by_key, key=stored))
            assert first is not None
            return first

    async def ledger_sum(self, player_id: str) -> int:
        return await self.db.read(partial(queries.ledger_sum, player_id=player_id))
