"""Migration 0017 (correspondence) on SQLite and PostgreSQL: players stored before it keep
their live rating and get a correspondence rating of 1500 and auto-roll off; rooms are live
(no days per move); vacations take rows; the downgrade removes it all and keeps the rest."""

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

AT = datetime(2026, 12, 6, 8, 0, tzinfo=UTC)


def _tables(connection: Connection) -> set[str]:
    return set(inspect(connection).get_table_names())


async def _check(url: str) -> None:
    db = Database(url)
    try:
        await db.migrate("0016")
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
            assert (row["rating"], row["corr_rating"], row["corr_experience"]) == (1612.5, 1500, 0)
            assert not row["auto_roll"]
            await connection.execute(
                text("INSERT INTO vacations (player_id, start, \"end\") VALUES ('p1', 1.0, 2.0)")
            )
            assert "vacations" in await connection.run_sync(_tables)
        async with db.engine.begin() as connection:
            await connection.run_sync(_downgrade, "0016")
        async with db.engine.connect() as connection:
            assert "vacations" not in await connection.run_sync(_tables)
            row = (await connection.execute(text("SELECT * FROM players"))).mappings().one()
            assert "corr_rating" not in row and row["rating"] == 1612.5
        await db.migrate()  # and up again
    finally:
        await db.close()


async def test_correspondence_migration_on_sqlite(tmp_path: Path) -> None:
    await _check(f"sqlite:///{tmp_path / 'corr.sqlite3'}")


async def test_correspondence_migration_on_postgres(postgres_url: str) -> None:
    await _check(postgres_url)
