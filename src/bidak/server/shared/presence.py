"""Who is at which table now: a player counts as there while one of their WebSockets has joined
the room (``bidak.server.play.ws``). Web Push asks it before a push goes
(``bidak.server.notifications.push``): a player looking at the match is not pushed.

One process keeps the count in its memory. With a Redis bus every process writes the sockets it
holds into Redis, so any process can answer for the whole site: one sorted set per player and
room (``{prefix}at:{player}:{room}``) whose members are the sockets there and whose scores are
when each stops counting. A process renews its own sockets every :data:`RENEW_SECONDS`; the
sockets of a process that died stop counting :data:`ALIVE_SECONDS` after its last renewal (its
players are pushed again from then on). Liveness is wall-clock time (a process's life), not the
server's injected clock (the game's time, which tests move by days).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any, Protocol

from bidak.server.shared.bus import REDIS_SCHEMES

log = logging.getLogger(__name__)

ALIVE_SECONDS = 180.0
"""How long a socket counts as at its table after its process last renewed it (Redis)."""
RENEW_SECONDS = 60.0
"""How often a process renews the sockets it holds (Redis)."""
RENEW_BATCH = 100
"""Sockets renewed per round trip to Redis. Building and reading one pipeline for every socket
of a process held its event loop for the whole batch: 23-27 ms of CPU for 1,000 sockets, 75 ms
of wall time in one callback for a process held to 0.4 core with 500 matches
(docs/performance.md). Between two batches the loop serves the tables."""


class Presence(Protocol):
    async def arrived(self, player_id: str, room: str, entry: str) -> None:
        """The socket ``entry`` of ``player_id`` joined ``room``."""
        ...

    async def left(self, player_id: str, room: str, entry: str) -> None: ...

    async def at(self, player_id: str, room: str) -> bool:
        """Whether one of the player's sockets is at ``room`` now."""
        ...

    async def close(self) -> None: ...


class MemoryPresence:
    """One process: the sockets at each table, in its memory."""

    def __init__(self) -> None:
        self._here: dict[tuple[str, str], set[str]] = {}

    async def arrived(self, player_id: str, room: str, entry: str) -> None:
        self._here.setdefault((player_id, room), set()).add(entry)

    async def left(self, player_id: str, room: str, entry: str) -> None:
        entries = self._here.get((player_id, room))
        if entries is not None:
            entries.discard(entry)
            if not entries:
                del self._here[(player_id, room)]

    async def at(self, player_id: str, room: str) -> bool:
        return bool(self._here.get((player_id, room)))

    async def close(self) -> None:
        self._here.clear()


class RedisPresence:
    """Every process: the sockets at each table in Redis, as described above."""

    def __init__(
        self, url: str, prefix: str, name: str | None = None, batch: int = RENEW_BATCH
    ) -> None:
        from bidak.server.shared.limiter import redis_client

        self._redis: Any = redis_client(url, name, decode=True)
        self.prefix = prefix
        self._mine: dict[str, tuple[str, str]] = {}
        """This process's sockets at tables: entry -> (player, room)."""
        self._renewer: asyncio.Task[None] | None = None
        self._batch = batch

    def key(self, player_id: str, room: str) -> str:
        return f"{self.prefix}at:{player_id}:{room}"

    async def _write(self, entries: dict[str, tuple[str, str]]) -> None:
        until = time.time() + ALIVE_SECONDS
        pipe = self._redis.pipeline(transaction=False)
        for entry, (player_id, room) in entries.items():
            key = self.key(player_id, room)
            pipe.zadd(key, {entry: until})
            pipe.zremrangebyscore(key, "-inf", time.time())
            pipe.expire(key, int(ALIVE_SECONDS) + 1)
        await pipe.execute()

    async def arrived(self, player_id: str, room: str, entry: str) -> None:
        self._mine[entry] = (player_id, room)
        if self._renewer is None:
            self._renewer = asyncio.create_task(self._renew_forever())
        try:
            await self._write({entry: (player_id, room)})
        except Exception as failed:  # the player may get a push they did not need
            log.warning("presence not written: Redis did not answer (%s)", failed)

    async def left(self, player_id: str, room: str, entry: str) -> None:
        self._mine.pop(entry, None)
        with contextlib.suppress(Exception):
            await self._redis.zrem(self.key(player_id, room), entry)

    async def at(self, player_id: str, room: str) -> bool:
        try:
            count = await self._redis.zcount(self.key(player_id, room), time.time(), "+inf")
        except Exception as failed:  # unknown: count them away (a push too many, never none)
            log.warning("presence not read: Redis did not answer (%s)", failed)
            return False
        return int(count) > 0

    async def renew(self) -> None:
        """Write every socket this process holds again, :data:`RENEW_BATCH` at a time."""
        held = list(self._mine.items())
        for start in range(0, len(held), self._batch):
            await self._write(dict(held[start : start + self._batch]))

    async def _renew_forever(self) -> None:
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            try:
                await self.renew()
            except Exception as failed:  # pragma: no cover - the next renewal tries again
                log.warning("presence not renewed: Redis did not answer (%s)", failed)

    async def close(self) -> None:
        if self._renewer is not None:
            self._renewer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._renewer
        for entry, (player_id, room) in list(self._mine.items()):
            with contextlib.suppress(Exception):
                await self._redis.zrem(self.key(player_id, room), entry)
        self._mine.clear()
        await self._redis.aclose()


def presence_for(bus_url: str, prefix: str, name: str | None = None) -> Presence:
    if bus_url.startswith(REDIS_SCHEMES):
        return RedisPresence(bus_url, prefix, name)
    return MemoryPresence()
