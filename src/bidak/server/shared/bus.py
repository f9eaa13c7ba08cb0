"""Pub/sub between server processes: an in-process hub by default, Redis when configured.

``Bus.from_url("memory://")`` or ``Bus.from_url("redis://host:6379/0")``; both deliver each
message published on a channel to every subscriber of that channel, in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import AsyncIterator, Mapping
from typing import Any, Protocol

import orjson

log = logging.getLogger(__name__)


class Subscription(Protocol):
    def __aiter__(self) -> AsyncIterator[dict[str, Any]]: ...

    async def close(self) -> None: ...


class Bus(Protocol):
    async def publish(self, channel: str, message: Mapping[str, Any]) -> None:
        """Send ``message`` (JSON-ready, typed in :mod:`bidak.server.play.wire.messages`) to every
        subscriber of ``channel``."""

    async def subscribe(self, channel: str) -> Subscription: ...

    async def close(self) -> None: ...


REDIS_SCHEMES = ("redis://", "rediss://", "unix://")
SCHEMES = ("memory://", *REDIS_SCHEMES)
"""How a bus URL may begin."""


def bus_from_url(url: str, name: str | None = None) -> Bus:
    """The bus at ``url``; ``name`` names this process's Redis connections (``CLIENT LIST``)."""
    if url.startswith("memory://"):
        return MemoryBus()
    if url.startswith(REDIS_SCHEMES):
        return RedisBus(url, name)
    raise ValueError(f"unknown bus URL {url!r}: use memory:// or redis://host:port/db")


class BusLost(Exception):
    """The bus stopped delivering (Redis went away): a subscription's stream has a gap."""


class _Queue:
    """One local subscriber: the messages of its channel, in order."""

    def __init__(self, owner: _Hub, channel: str) -> None:
        self.queue: asyncio.Queue[dict[str, Any] | BaseException | None] = asyncio.Queue()
        self._owner, self._channel = owner, channel

    async def __aiter__(self) -> AsyncIterator[dict[str, Any]]:
        while True:
            item = await self.queue.get()
            if item is None:
                return
            if isinstance(item, BaseException):
                raise item
            yield item

    async def close(self) -> None:
        await self._owner._leave(self._channel, self)
        self.queue.put_nowait(None)


class _Hub:
    """Local subscribers by channel; each message is handed to every one of its channel."""

    def __init__(self) -> None:
        self._subscribers: dict[str, set[_Queue]] = defaultdict(set)

    def _deliver(self, channel: str, message: dict[str, Any] | BaseException) -> None:
        for subscriber in list(self._subscribers.get(channel, ())):
            subscriber.queue.put_nowait(message)

    async def _join(self, channel: str) -> _Queue:
        subscription = _Queue(self, channel)
        self._subscribers[channel].add(subscription)
        return subscription

    async def _leave(self, channel: str, subscription: _Queue) -> None:
        subscribers = self._subscribers.get(channel)
        if subscribers is not None:
            subscribers.discard(subscription)
            if not subscribers:
                del self._subscribers[channel]

    async def close(self) -> None:
        for subscribers in list(self._subscribers.values()):
            for subscriber in list(subscribers):
                await subscriber.close()


class MemoryBus(_Hub):
    """One process: messages go straight to the subscribers' queues."""

    async def publish(self, channel: str, message: Mapping[str, Any]) -> None:
        self._deliver(channel, dict(message))

    async def subscribe(self, channel: str) -> _Queue:
        return await self._join(channel)


PUBLISH_CONNECTIONS = 16
"""Connections a process publishes on at once (a publish takes a fraction of a millisecond)."""
PUBLISH_WAIT = 10.0
"""Seconds a publish may wait for a free connection before it fails."""


class RedisBus(_Hub):
    """Several processes: Redis PUBLISH/SUBSCRIBE carries JSON messages.

    A process holds one Redis subscription connection whatever the number of its subscribers:
    it subscribes a channel when its first local subscriber arrives and unsubscribes when the
    last leaves, decodes each message once and hands it to every local subscriber. If the
    connection is lost, every subscription ends with :class:`BusLost` (its owner cannot know
    what it missed) and the next subscription opens a new connection.
    """

    def __init__(self, url: str, name: str | None = None) -> None:
        super().__init__()
        import redis.asyncio as redis
        from redis.asyncio.retry import Retry
        from redis.backoff import ExponentialBackoff, NoBackoff
        from redis.exceptions import ConnectionError, TimeoutError

        # A publish on a connection that died (Redis restarted) is sent again on a new one.
        # Publishes beyond the pool's connections wait for one: after a stall of the event
        # loop hundreds are due at once, and redis-py's default pool (100 connections, then
        # MaxConnectionsError) failed them after their events were stored.
        pool = redis.BlockingConnectionPool.from_url(
            url,
            max_connections=PUBLISH_CONNECTIONS,
            timeout=PUBLISH_WAIT,
            decode_responses=True,
            client_name=name,
            retry=Retry(ExponentialBackoff(cap=0.5), 3),
            retry_on_error=[ConnectionError, TimeoutError],
        )
        self._redis = redis.Redis.from_pool(pool)
        # The subscription connection is never silently reconnected: what was published
        # meanwhile would be missing, so its loss is told to the subscribers instead.
        self._listener = redis.from_url(
            url, decode_responses=True, client_name=name, retry=Retry(NoBackoff(), 0)
        )
        self._pubsub: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._closing = False

    async def publish(self, channel: str, message: Mapping[str, Any]) -> None:
        await self._redis.publish(channel, orjson.dumps(message))

    async def subscribe(self, channel: str) -> _Queue:
        if self._pubsub is None:
            self._pubsub = self._listener.pubsub()
        pubsub = self._pubsub
        first = channel not in self._subscribers
        subscription = await self._join(channel)
        if first:
            try:
                await pubsub.subscribe(channel)
            except Exception:
                await self._leave(channel, subscription)
                raise
        if self._reader is None or self._reader.done():
            self._reader = asyncio.create_task(self._read(pubsub))
        return subscription

    async def _leave(self, channel: str, subscription: _Queue) -> None:
        await super()._leave(channel, subscription)
        if channel not in self._subscribers and self._pubsub is not None:
            with contextlib.suppress(Exception):  # a lost connection has no channels anyway
                await self._pubsub.unsubscribe(channel)

    async def _read(self, pubsub: Any) -> None:
        try:
            while True:
                item = await pubsub.get_message(ignore_subscribe_messages=True, timeout=None)
                if item is None or item.get("type") != "message":
                    continue
                channel = item["channel"]
                if channel in self._subscribers:
                    self._deliver(channel, orjson.loads(item["data"]))
        except asyncio.CancelledError:
            raise
        except Exception as lost:
            if self._closing:
                return
            log.warning("the Redis bus was lost (%s); subscriptions end", lost)
            self._pubsub = None
            failure = BusLost(str(lost))
            for channel in list(self._subscribers):
                self._deliver(channel, failure)
            self._subscribers.clear()
            with contextlib.suppress(Exception):
                await pubsub.aclose()

    async def close(self) -> None:
        """End every subscription (their loops finish, as with the memory bus), then disconnect."""
        self._closing = True
        await super().close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
        await self._redis.aclose()
        await self._listener.aclose()


def player_channel(player_id: str) -> str:
    """A player's own channel: what every socket of theirs, in any process, is sent."""
    return f"bidak:player:{player_id}"
