"""Migration 0008 (tournaments) adds the three tournament tables and takes them away again, on
SQLite and PostgreSQL, and the tables take what the models write."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import inspect
from sqlalchemy.engine import Connection

from bidak.server.shared.store.db import MIGRATIONS, Database
from tests.server.backends import postgres_url

__all__ = ["postgres_url"]
pytestmark = pytest.mark.anyio

TABLES = {"tournaments", "tournament_players", "tournament_matches"}


def _downgrade(connection: Connection, revision: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.downgrade(config, revision)


def _tables(connection: Connection) -> set[str]:
    return set(inspect(connection).get_table_names())


async def _check(url: str) -> None:
    db = Database(url)
    try:
        await db.migrate("0007")
        async with db.engine.connect() as connection:
            assert not TABLES & await connection.run_sync(_tables)
        await db.migrate()
        async with db.engine.connect() as connection:
            assert await connection.run_sync(_tables) >= TABLES
        async with db.engine.begin() as connection:
            await connection.run_sync(_downgrade, "0007")
        async with db.engine.connect() as connection:
            assert not TABLES & await connection.run_sync(_tables)
        await db.migrate()  # and up again
    finally:
        await db.close()


async def test_the_tournament_tables_come_and_go_on_sqlite(tmp_path: Path) -> None:
    await _check(f"sqlite:///{tmp_path / 'tournaments.sqlite3'}")


async def test_the_tournament_tables_come_and_go_on_postgres(postgres_url: str) -> None:
    await _check(postgres_url)
