"""The site's VAPID key pair (issue 38): two servers starting at once on one PostgreSQL database
end up with one key pair (one stores it under its unique name, the other reads it), and a
restart keeps it."""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack
from pathlib import Path

import pytest

from bidak.server.notifications import site_key
from bidak.server.shared.clocks import ManualClock
from bidak.server.shared.store.db import Database
from tests.server.backends import postgres_url
from tests.server.harness import Client, running_server, server_settings

__all__ = ["postgres_url"]
pytestmark = pytest.mark.anyio


async def test_two_servers_on_one_database_keep_one_key_pair(
    tmp_path: Path, postgres_url: str
) -> None:
    clock = ManualClock()
    settings = [
        server_settings(tmp_path / name, database_url=postgres_url, instance_id=name)
        for name in ("a", "b")
    ]
    async with AsyncExitStack() as stack:
        servers = await asyncio.gather(
            *(stack.enter_async_context(running_server(s, clock)) for s in settings)
        )
        keys = set()
        for running in servers:
            async with Client(running) as client:
                keys.add((await client.http.get("/api/push/key")).json()["key"])
        assert len(keys) == 1
    async with running_server(settings[0], clock) as again, Client(again) as client:
        assert {(await client.http.get("/api/push/key")).json()["key"]} == keys


async def test_processes_racing_for_the_first_key_store_one(postgres_url: str) -> None:
    databases = [Database(postgres_url) for _ in range(4)]
    try:
        await databases[0].migrate()
        found = await asyncio.gather(*(site_key(db, "", 1.0) for db in databases))
        assert len(set(found)) == 1
    finally:
        for db in databases:
            await db.close()
