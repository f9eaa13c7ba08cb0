"""Pub/sub between server processes: an in-process hub by default, Redis when configured.

``Bus.from_url("memory://")`` or ``Bus.from_url("redis://host:6379/0")``; both deliver each
message published on a channel to every subscriber of that channel, in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import defaultdict
from collections.abc import AsyncIterator
from typing import Any, Protocol


class Subscription(Protocol):
    def __aiter__(self) -> AsyncIterator[dict[str, Any]]: ...

    async def close(self) -> None: ...


class Bus(Protocol):
    async def publish(self, channel: str, message: dict[str, Any]) -> None: ...

    async def subscribe(self, channel: str) -> Subscription: ...

    async def close(self) -> None: ...


def bus_from_url(url: str) -> Bus:
    if url.startswith("memory://"):
        return MemoryBus()
    if url.startswith(("redis://", "rediss://", "unix://")):
        return RedisBus(url)
    raise ValueError(f"unknown bus URL {url!r}: use memory:// or redis://host:port/db")


class _Queue:
    def __init__(self, owner: MemoryBus, channel: str) -> None:
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self._owner, self._channel = owner, channel

    async def __aiter__(self) -> AsyncIterator[dict[str, Any]]:
        while True:
            item = await self.queue.get()
            if item is None:
                return
            yield item

    async def close(self) -> None:
        self._owner._subscribers[self._channel].discard(self)
        self.queue.put_nowait(None)


class MemoryBus:
    """One process: messages go straight to the subscribers' queues."""

    def __init__(self) -> None:
        self._subscribers: dict[str, set[_Queue]] = defaultdict(set)

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        for subscriber in list(self._subscribers.get(channel, ())):
            subscriber.queue.put_nowait(message)

    async def subscribe(self, channel: str) -> _Queue:
        subscription = _Queue(self, channel)
        self._subscribers[channel].add(subscription)
        return subscription

    async def close(self) -> None:
        for subscribers in self._subscribers.values():
            for subscriber in list(subscribers):
                await subscriber.close()


class _RedisSubscription:
    def __init__(self, pubsub: Any, owner: set[_RedisSubscription]) -> None:
        self._pubsub = pubsub
        self._owner = owner
        self._closed = False

    async def __aiter__(self) -> AsyncIterator[dict[str, Any]]:
        try:
            async for item in self._pubsub.listen():
                if item.get("type") == "message":
                    yield json.loads(item["data"])
        except Exception:
            if not self._closed:  # Redis went away: the subscriber has to know
                raise

    async def close(self) -> None:
        self._closed = True
        self._owner.discard(self)
        with contextlib.suppress(Exception):
            await self._pubsub.unsubscribe()
            await self._pubsub.aclose()


class RedisBus:
    """Several processes: Redis PUBLISH/SUBSCRIBE carries JSON messages."""

    def __init__(self, url: str) -> None:
        import redis.asyncio as redis

        self._redis = redis.from_url(url, decode_responses=True)
        self._subscriptions: set[_RedisSubscription] = set()

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        await self._redis.publish(channel, json.dumps(message, separators=(",", ":")))

    async def subscribe(self, channel: str) -> _RedisSubscription:
        pubsub = self._redis.pubsub()
        await pubsub.subscribe(channel)
        subscription = _RedisSubscription(pubsub, self._subscriptions)
        self._subscriptions.add(subscription)
        return subscription

    async def close(self) -> None:
        """End every subscription (their loops finish, as with the memory bus), then disconnect."""
        for subscription in list(self._subscriptions):
            await subscription.close()
        await self._redis.aclose()
