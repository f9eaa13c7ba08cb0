"""Migration 0007 (fair play) on SQLite and PostgreSQL: players stored before it keep every
column and become no moderator, unmuted and unbanned; the new tables take rows; the downgrade
removes them and keeps the players."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection

from bidak.server.shared.store.db import Database
from tests.server import backends
from tests.server.test_unread_columns import _downgrade

pytestmark = pytest.mark.anyio
postgres_url = backends.postgres_url

AT = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)


def _tables(connection: Connection) -> set[str]:
    return set(inspect(connection).get_table_names())


async def _check(url: str) -> None:
    db = Database(url)
    try:
        await db.migrate("0006")
        async with db.engine.begin() as connection:
            await connection.execute(
                text(
                    "INSERT INTO players (id, name, created_at, rating, experience)"
                    " VALUES ('p1', 'Ana Lee', :t, 1612.5, 40)"
                ),
                {"t": AT},
            )
        await db.migrate()
        async with db.engine.begin() as connection:
            row = (await connection.execute(text("SELECT * FROM players"))).mappings().one()
            assert (row["name"], row["rating"], row["experience"]) == ("Ana Lee", 1612.5, 40)
            assert not row["moderator"] and not row["talk_muted"] and not row["rated_ban"]
            await connection.execute(
                text(
                    "INSERT INTO actions (player_id, kind, note, at)"
                    " VALUES ('p1', 'grant', 'test', :t)"
                ),
                {"t": AT},
            )
            assert {"reports", "actions", "refunds", "figures"} <= await connection.run_sync(
                _tables
            )
        async with db.engine.begin() as connection:
            await connection.run_sync(_downgrade, "0006")
        async with db.engine.connect() as connection:
            tables = await connection.run_sync(_tables)
            assert not {"reports", "actions", "refunds", "figures"} & tables
            row = (await connection.execute(text("SELECT * FROM players"))).mappings().one()
            assert "moderator" not in row and row["rating"] == 1612.5
        await db.migrate()  # and up again
    finally:
        await db.close()


async def test_fair_play_migration_on_sqlite(tmp_path: Path) -> None:
    await _check(f"sqlite:///{tmp_path / 'fair.sqlite3'}")


async def test_fair_play_migration_on_postgres(postgres_url: str) -> None:
    await _check(postgres_url)
