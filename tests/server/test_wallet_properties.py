"""Random sequences of check-ins, grants, purchases and their retries, on a real SQLite file:
no balance ever goes below zero or differs from its ledger's sum, and a retry changes nothing."""

from __future__ import annotations

import asyncio
import shutil
import uuid
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bidak.economy import Insufficient
from bidak.economy.shop import BOARDS, CHECKERS, FREE
from bidak.server.play.storage import Store
from bidak.server.shared.clocks import ManualClock
from bidak.server.shared.store.db import Database
from bidak.server.wallet.service import WalletError, Wallets

ITEMS = [i.id for i in (*BOARDS, *CHECKERS) if i.id not in FREE]

operations = st.lists(
    st.one_of(
        st.tuples(st.just("checkin"), st.sampled_from([0, 0, 1, 1, 2, 5])),
        st.tuples(st.just("grant"), st.integers(-200, 200).filter(bool)),
        st.tuples(st.just("buy"), st.sampled_from(ITEMS), st.sampled_from("abcd")),
    ),
    min_size=1,
    max_size=25,
)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated database file, copied for every example (migrating each time is slow)."""
    path = tmp_path_factory.mktemp("wallet") / "template.sqlite3"

    async def migrate() -> None:
        db = Database(f"sqlite:///{path}")
        await db.migrate()
        await db.close()

    asyncio.run(migrate())
    return path


async def run(path: Path, ops: list[tuple[Any, ...]]) -> None:
    db = Database(f"sqlite:///{path}")
    store = Store(db)
    clock = ManualClock(1_800_000_000.0)
    wallets = Wallets(db, clock, "Asia/Jakarta")
    try:
        player, _ = await store.create_guest("Prop Erty")
        seen_keys: dict[str, int] = {}
        for op in ops:
            before = (await wallets.purse(player.id)).balance
            if op[0] == "checkin":
                await clock.advance(op[1] * 24 * 3600)
                done = await wallets.check_in(player.id)
                assert done.balance == before + done.check_in.coins + done.welcome
            elif op[0] == "grant":
                try:
                    await wallets.grant(player.id, op[1], "property")
                except Insufficient:
                    assert before + op[1] < 0
            else:
                _, item, key = op
                client_key = f"key-{key}-{key}-{key}"
                try:
                    purchase = await wallets.buy(player.id, item, client_key)
                except Insufficient:
                    assert client_key not in seen_keys
                except WalletError as refused:
                    assert refused.code in ("owned", "key_reused")
                else:
                    if purchase.replayed:
                        # A retry: answered with the first purchase, nothing charged again.
                        assert (await wallets.purse(player.id)).balance == before
                    else:
                        seen_keys[client_key] = purchase.entry.id
            balance = (await wallets.purse(player.id)).balance
            assert balance >= 0
            assert balance == await wallets.ledger_sum(player.id)
    finally:
        await store.close()
        await db.close()


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(ops=operations)
def test_no_sequence_breaks_the_ledger(
    ops: list[tuple[Any, ...]], template: Path, tmp_path: Path
) -> None:
    path = tmp_path / f"{uuid.uuid4().hex}.sqlite3"  # a file of its own (no stale WAL)
    shutil.copyfile(template, path)
    asyncio.run(run(path, ops))
