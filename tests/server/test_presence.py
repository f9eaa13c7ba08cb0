"""Who is at which table (issue 38), across processes: a socket at a table written by one
process is seen by another through Redis, until it leaves or its process stops; one process
alone keeps it in memory."""

from __future__ import annotations

import secrets

import pytest

from bidak.server.shared.presence import MemoryPresence, RedisPresence, presence_for
from tests.server import backends

pytestmark = pytest.mark.anyio
redis_url = backends.redis_url


async def test_a_table_seen_from_another_process(redis_url: str) -> None:
    prefix = f"bidak-test-{secrets.token_hex(6)}:"
    a, b = RedisPresence(redis_url, prefix), RedisPresence(redis_url, prefix)
    try:
        assert not await b.at("p1", "ROOM")
        await a.arrived("p1", "ROOM", "a/1")
        await a.arrived("p1", "ROOM", "a/2")
        assert await b.at("p1", "ROOM") and not await b.at("p1", "OTHER")
        assert not await b.at("p2", "ROOM")
        await a.left("p1", "ROOM", "a/1")
        assert await b.at("p1", "ROOM")  # another socket of theirs is still there
        await b.arrived("p2", "ROOM", "b/1")
        await a.close()  # a process stopping takes its sockets along
        assert not await b.at("p1", "ROOM") and await b.at("p2", "ROOM")
    finally:
        await b.close()


async def test_one_process_keeps_it_in_memory() -> None:
    here = presence_for("memory://", "x:")
    assert isinstance(here, MemoryPresence)
    await here.arrived("p1", "ROOM", "1")
    assert await here.at("p1", "ROOM")
    await here.left("p1", "ROOM", "1")
    assert not await here.at("p1", "ROOM")
