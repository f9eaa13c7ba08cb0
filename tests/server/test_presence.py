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


async def test_a_renewal_brings_back_every_socket_batch_by_batch(redis_url: str) -> None:
    """A process renews its sockets a batch at a time (so its loop serves tables between the
    batches): every socket of every batch counts again, none is left out at a batch's edge."""
    prefix = f"bidak-test-{secrets.token_hex(6)}:"
    a, b = RedisPresence(redis_url, prefix, batch=7), RedisPresence(redis_url, prefix)
    players = [(f"p{i}", f"R{i // 2}", f"a/{i}") for i in range(20)]
    try:
        for player, room, entry in players:
            await a.arrived(player, room, entry)
        for player, room, entry in players:  # as if the process had not renewed in time
            await a._redis.zadd(a.key(player, room), {entry: 1.0})
        assert not any([await b.at(player, room) for player, room, _ in players])
        await a.renew()
        assert all([await b.at(player, room) for player, room, _ in players])
    finally:
        await a.close()
        await b.close()


async def test_one_process_keeps_it_in_memory() -> None:
    here = presence_for("memory://", "x:")
    assert isinstance(here, MemoryPresence)
    await here.arrived("p1", "ROOM", "1")
    assert await here.at("p1", "ROOM")
    await here.left("p1", "ROOM", "1")
    assert not await here.at("p1", "ROOM")
