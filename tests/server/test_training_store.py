"""The blunder bank's table (migration 0009) on SQLite and PostgreSQL: a card is stored once per
place, a deeper review replaces its figures and keeps its schedule, and the downgrade drops the
two tables and the upgrade brings them back."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection

from bidak.server.shared.store.db import MIGRATIONS, Database
from bidak.server.training import queries
from tests.server import backends

pytestmark = pytest.mark.anyio
postgres_url = backends.postgres_url
NOW = datetime(2026, 12, 2, tzinfo=UTC)


async def _match(db: Database) -> None:
    async with db.engine.begin() as connection:
        await connection.execute(
            text("INSERT INTO players (id, name, created_at) VALUES ('p1', 'Ana Lee', :t)"),
            {"t": NOW},
        )
        await connection.execute(
            text(
                "INSERT INTO rooms (code, kind, created_at, creator_id, rules)"
                " VALUES ('r1', 'practice', :t, 'p1', '{}')"
            ),
            {"t": NOW},
        )
        await connection.execute(
            text(
                "INSERT INTO matches (id, room_code, rules, state, version, seed, seed_hash,"
                " dice_drawn, finished, created_at, updated_at)"
                " VALUES ('m1', 'r1', '{}', '{}', 0, 's', 'h', 0, true, :t, :t)"
            ),
            {"t": NOW},
        )


def card(**fields: Any) -> dict[str, Any]:
    return {
        "player_id": "p1",
        "match_id": "m1",
        "game": 1,
        "turn": 3,
        "kind": "checker",
        "seat": 0,
        "xgid": "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:3:10",
        "played": "24/21 24/23",
        "best": "8/5 6/5",
        "loss": 0.12,
        "depth": 1,
        "phase": "opening",
        "theme": "opening",
        "analysis": {"dice": [3, 1], "ranking": []},
        "schedule": {"state": 1},
        "due": 100.0,
        "created_at": 100.0,
        **fields,
    }


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
        await db.migrate()
        await _match(db)
        assert await db.write(partial(queries.bank, cards=[card(), card(turn=5)])) == 2
        assert await db.write(partial(queries.bank, cards=[card(), card(turn=5)])) == 0
        deeper = card(loss=0.2, depth=2, best="13/10 6/5", schedule={"state": 9}, due=5.0)
        assert await db.write(partial(queries.bank, cards=[deeper])) == 0
        assert await db.read(partial(queries.counts, player_id="p1", until=1e12)) == (2, 2)
        row = await db.read(partial(queries.next_due, player_id="p1", now=1e12))
        assert row is not None and row.turn == 3
        assert (row.loss, row.depth, row.best) == (0.2, 2, "13/10 6/5")
        assert (row.schedule, row.due) == ({"state": 1}, 100.0), "the schedule stays"
        shallower = card(loss=0.01, depth=1)
        await db.write(partial(queries.bank, cards=[shallower]))
        row = await db.read(partial(queries.card, player_id="p1", card_id=row.id))
        assert row is not None and row.depth == 2, "a shallower review changes nothing"

        async with db.engine.begin() as connection:
            await connection.run_sync(_downgrade, "0008")
            assert not {"cards", "drills"} & await connection.run_sync(_tables)
        await db.migrate()
        async with db.engine.connect() as connection:
            assert {"cards", "drills"} <= await connection.run_sync(_tables)
    finally:
        await db.close()


async def test_the_bank_on_sqlite(tmp_path: Path) -> None:
    await _check(f"sqlite:///{tmp_path / 'bank.sqlite3'}")


async def test_the_bank_on_postgres(postgres_url: str) -> None:
    await _check(postgres_url)
