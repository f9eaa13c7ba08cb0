"""The server on PostgreSQL: migrations, a friend match with the cube and a practice match.

Each test runs in a schema of its own (see ``backends.py``); the tests skip when PostgreSQL is
not running, and fail instead under ``CI=true``.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import text

from bidak.match import event_from_json, replay, state_to_json
from bidak.server.shared.store.db import MIGRATIONS, Database
from bidak.server.shared.store.models import Base
from tests.server import backends
from tests.server.harness import Client, friend_room, running_server, server_settings
from tests.server.scripted import Script, drive, play_all

pytestmark = pytest.mark.anyio
postgres_url = backends.postgres_url  # the fixture, here under its own name

TABLES = {"alembic_version", *Base.metadata.tables}
"""The migrations must make exactly the tables the models describe."""


def head() -> list[str]:
    """The one head revision of the migrations (two heads: Alembic raises)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    found = ScriptDirectory.from_config(config).get_current_head()
    assert found is not None
    return [found]


async def _schema(db: Database) -> tuple[set[str], list[str]]:
    async with db.engine.connect() as connection:
        tables = await connection.scalars(
            text("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
        )
        versions = await connection.scalars(text("SELECT version_num FROM alembic_version"))
        return set(tables), list(versions)


async def test_migrations_run_twice_and_leave_one_head(postgres_url: str) -> None:
    for _ in range(2):
        db = Database(postgres_url)
        assert db.url.startswith("postgresql+asyncpg://")
        try:
            await db.migrate()
            tables, versions = await _schema(db)
        finally:
            await db.close()
        assert tables == TABLES
        assert versions == head()


MIGRATE = """
import asyncio, sys
from bidak.server.shared.store.db import MIGRATIONS, Database
from bidak.server.shared.store.models import Base

async def main() -> None:
    db = Database(sys.argv[1])
    print("ready", flush=True)
    sys.stdin.readline()
    try:
        await db.migrate()
    finally:
        await db.close()

asyncio.run(main())
"""


async def test_servers_starting_together_all_migrate(postgres_url: str) -> None:
    """Processes started at once against an empty database (a rolling deploy, or instances
    behind a load balancer) must all come up: migrations may not race each other."""
    processes = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            MIGRATE,
            postgres_url,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        for _ in range(3)
    ]
    for process in processes:  # every one imported and ready; then all start at once
        assert process.stdout is not None
        assert await asyncio.wait_for(process.stdout.readline(), 30) == b"ready\n"
    outputs = await asyncio.gather(*(p.communicate(b"go\n") for p in processes))
    failures = [
        next(line for line in reversed(err.decode().splitlines()) if "Error" in line)
        for p, (_, err) in zip(processes, outputs, strict=True)
        if p.returncode != 0
    ]
    assert not failures, failures
    db = Database(postgres_url)
    try:
        tables, versions = await _schema(db)
    finally:
        await db.close()
    assert tables == TABLES and versions == head()


def _events(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        item
        for message in messages
        for item in message.get("missed", []) + message.get("events", [])
    ]


async def _stored_log_is_the_match(client: Client, match_id: str) -> list[dict[str, Any]]:
    """The stored events, in order, replay to the stored state (what every later read uses)."""
    stored = (await client.http.get(f"/api/matches/{match_id}/events")).json()
    versions = [e["version"] for e in stored["events"]]
    assert versions == list(range(1, len(versions) + 1))
    row = await client.running.services.store.match(match_id)
    assert row is not None and row.version == len(versions) and row.finished
    state = replay(event_from_json(e["event"]) for e in stored["events"])
    assert state_to_json(state) == row.state
    events: list[dict[str, Any]] = stored["events"]
    return events


async def test_a_friend_match_with_the_cube_on_postgres(tmp_path: Path, postgres_url: str) -> None:
    settings = server_settings(tmp_path, database_url=postgres_url)
    async with running_server(settings) as running:
        assert running.services.db.url.startswith("postgresql+asyncpg://")
        async with Client(running) as alice, Client(running) as bob, Client(running) as carol:
            room, joined = await friend_room(alice, bob)
            assert joined["seat"] == 1 and joined["match_id"]
            await alice.join(room["code"])
            await bob.join(room["code"])
            await carol.join(room["code"], since=0)
            finals = await play_all(
                drive(alice, Script(1, double=0.3, drop=0.3), 0),
                drive(bob, Script(2, double=0.3, drop=0.3), 1),
                drive(carol, None, None),
            )
            assert finals[0]["score"] == finals[1]["score"] == finals[2]["score"]
            assert max(finals[0]["score"]) >= 3
            stored = await _stored_log_is_the_match(carol, joined["match_id"])
            kinds = {e["event"]["type"] for e in stored}
            assert {"doubled", "taken", "dropped", "match_won"} <= kinds
            # Everyone saw every stored event once, in order (the spectator from version 1).
            assert _events(carol.messages) == stored
            for player in (alice, bob):
                seen = _events(player.messages)
                assert seen == stored[len(stored) - len(seen) :]
            proof = (await carol.http.get(f"/api/matches/{joined['match_id']}/dice")).json()
            assert proof["seed"] and len(proof["dice"]) == proof["dice_drawn"]
            mat = await alice.http.get(f"/api/matches/{joined['match_id']}/mat")
            assert mat.status_code == 200 and "3 point match" in mat.text


async def test_a_practice_match_on_postgres(tmp_path: Path, postgres_url: str) -> None:
    settings = server_settings(tmp_path, database_url=postgres_url)
    async with running_server(settings) as running, Client(running) as guest:
        room = (
            await guest.http.post(
                "/api/rooms",
                json={"kind": "practice", "length": 3, "cube": True, "level": "beginner"},
            )
        ).json()
        await guest.join(room["code"], since=0)
        final = await drive(guest, Script(4, double=0.2), 0)
        assert max(final["score"]) >= 3 and final["winner"] in (0, 1)
        stored = await _stored_log_is_the_match(guest, room["match_id"])
        assert _events(guest.messages) == stored
        history = (await guest.http.get("/api/me/matches")).json()
        assert history[0]["match_id"] == room["match_id"] and history[0]["finished"]


async def test_text_postgres_cannot_store_is_refused_not_a_crash(
    tmp_path: Path, postgres_url: str
) -> None:
    """PostgreSQL refuses NUL characters in text, which SQLite takes: an address with one is
    refused before any route (400), and a code with one over the WebSocket is simply not a
    room."""
    settings = server_settings(tmp_path, database_url=postgres_url)
    async with running_server(settings) as running, Client(running) as eve:
        for answer in (
            await eve.http.get("/api/rooms/a%00b"),
            await eve.http.post("/api/rooms/a%00b/join"),
            await eve.http.get("/api/tournaments", params={"x": "a\x00b"}),
        ):
            assert answer.status_code == 400 and "NUL" in answer.text
        await eve.connect()
        await eve.send({"type": "join", "room": "a\u0000b"})
        answer = await eve.receive()
        assert answer["type"] == "error" and answer["code"] == "not_found", answer
        await eve.send({"type": "ping"})
        assert (await eve.receive())["type"] == "pong"


async def test_a_read_whose_connection_postgresql_ended_is_answered_from_a_new_one(
    postgres_url: str,
) -> None:
    """Reads take a pooled connection without pinging it first; when PostgreSQL has ended that
    connection (a restart, an operator), the reader still gets its answer, not an error."""
    db = Database(postgres_url)
    try:

        def backend(connection: Any) -> int:
            return int(connection.execute(text("SELECT pg_backend_pid()")).scalar_one())

        first = await db.read(backend)
        async with db.engine.connect() as admin:
            ended = await admin.scalar(text("SELECT pg_terminate_backend(:pid)"), {"pid": first})
        assert ended
        second = await db.read(backend)
        assert second != first
    finally:
        await db.close()
