"""Migration 0006 drops two columns nothing read (``owned.at``, ``email_links.created_at``):
every row stays, with everything else it held, and the downgrade puts both columns back from
where they are repeated. On SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection

from bidak.server.shared.store.db import MIGRATIONS, Database
from tests.server import backends

pytestmark = pytest.mark.anyio
postgres_url = backends.postgres_url

BOUGHT = datetime(2025, 3, 4, 5, 6, 7, tzinfo=UTC)
EXPIRES = 1_750_000_000.0


async def _store_at_0005(db: Database) -> None:
    await db.migrate("0005")
    async with db.engine.begin() as connection:
        await connection.execute(
            text("INSERT INTO players (id, name, created_at) VALUES ('p1', 'Ana Lee', :t)"),
            {"t": BOUGHT},
        )
        await connection.execute(
            text(
                "INSERT INTO ledger (id, player_id, amount, reason, key, item, balance_after, at)"
                " VALUES (7, 'p1', -40, 'purchase', 'k1', 'ebony', 10, :t)"
            ),
            {"t": BOUGHT},
        )
        await connection.execute(
            text("INSERT INTO owned (player_id, item, entry_id, at) VALUES ('p1', 'ebony', 7, :t)"),
            {"t": BOUGHT},
        )
        await connection.execute(
            text(
                "INSERT INTO email_links (token_hash, purpose, player_id, email, created_at,"
                " expires_at, used_at) VALUES ('h1', 'sign_in', 'p1', 'ana@example.org', :c, :e,"
                " NULL)"
            ),
            {"c": EXPIRES - 1800, "e": EXPIRES},
        )


def _columns(connection: Connection, table: str) -> set[str]:
    return {column["name"] for column in inspect(connection).get_columns(table)}


async def _rows(db: Database) -> dict[str, Any]:
    async with db.engine.connect() as connection:
        owned = (await connection.execute(text("SELECT * FROM owned"))).mappings().all()
        links = (await connection.execute(text("SELECT * FROM email_links"))).mappings().all()
        ledger = (await connection.execute(text("SELECT id, at FROM ledger"))).all()
        return {
            "owned": [dict(row) for row in owned],
            "links": [dict(row) for row in links],
            "ledger": ledger,
            "owned_columns": await connection.run_sync(_columns, "owned"),
            "links_columns": await connection.run_sync(_columns, "email_links"),
        }


def _downgrade(connection: Connection, revision: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.downgrade(config, revision)


def _instant(value: object) -> datetime:
    """A stored time as an aware datetime (SQLite gives back its text, naive)."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    assert isinstance(value, datetime)
    return value if value.tzinfo else value.replace(tzinfo=UTC)


async def _check(url: str) -> None:
    db = Database(url)
    try:
        await _store_at_0005(db)
        await db.migrate()
        after = await _rows(db)
        assert "at" not in after["owned_columns"]
        assert "created_at" not in after["links_columns"]
        assert after["owned"] == [{"player_id": "p1", "item": "ebony", "entry_id": 7}]
        assert after["links"] == [
            {
                "token_hash": "h1",
                "purpose": "sign_in",
                "player_id": "p1",
                "email": "ana@example.org",
                "expires_at": EXPIRES,
                "used_at": None,
            }
        ]
        assert [_instant(at) for _, at in after["ledger"]] == [BOUGHT], "the time stays"

        async with db.engine.begin() as connection:
            await connection.run_sync(_downgrade, "0005")
        back = await _rows(db)
        assert [_instant(row.pop("at")) for row in back["owned"]] == [BOUGHT]
        assert back["owned"] == after["owned"]
        assert [row.pop("created_at") for row in back["links"]] == [EXPIRES - 1800]
        assert back["links"] == after["links"]
        await db.migrate()  # and up again
    finally:
        await db.close()


async def test_dropped_columns_lose_nothing_on_sqlite(tmp_path: Path) -> None:
    await _check(f"sqlite:///{tmp_path / 'columns.sqlite3'}")


async def test_dropped_columns_lose_nothing_on_postgres(postgres_url: str) -> None:
    await _check(postgres_url)
