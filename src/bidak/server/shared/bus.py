"""Pub/sub between server processes: an in-process hub by default, Redis when configured.

``Bus.from_url("memory://")`` or ``Bus.from_url("redis://host:6379/0")``; both deliver each
message published on a channel to every subscriber of that channel, in order.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict, deque
from collections.abc import AsyncIterator, Mapping
from typing import Any, Protocol

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
        from bidak.server.shared.redis_bus import RedisBus  # (which builds on this module)

        return RedisBus(url, name)
    raise ValueError(f"unknown bus URL {url!r}: use memory:// or redis://host:port/db")


class BusLost(Exception):
    """The one error of the bus: it can no longer deliver to this process (a subscription
    ends with it; its owner cannot know what it missed and should tell its client to
    reconnect). Redis going away for a while is not an error: see
    :class:`~bidak.server.shared.redis_bus.RedisBus`."""


RESYNC = "bus_resync"
"""The ``kind`` of the message a subscription is handed when the bus is back after a loss:
messages published meanwhile may be missing, so its owner catches up from the store."""


class _Queue:
    """One local subscriber: the messages of its channel, in order, for its one reader.

    A deque and the reader's future, not an ``asyncio.Queue`` behind an async generator: every
    message of every table passes through here twice an action (once per player), and the
    queue's bookkeeping (its unfinished count and event, getter and putter lists) and the
    generator's extra frame were all spent on a reader that only ever waits for the next one.
    """

    __slots__ = ("_channel", "_items", "_owner", "_waiter")

    def __init__(self, owner: _Hub, channel: str) -> None:
        self._items: deque[dict[str, Any] | BaseException | None] = deque()
        self._waiter: asyncio.Future[None] | None = None
        self._owner, self._channel = owner, channel

    def put_nowait(self, item: dict[str, Any] | BaseException | None) -> None:
        """Hand ``item`` to the reader: a message, an error it raises, or None, the end."""
        self._items.append(item)
        waiter, self._waiter = self._waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def __aiter__(self) -> _Queue:
        return self

    async def __anext__(self) -> dict[str, Any]:
        while not self._items:
            waiter = self._waiter = asyncio.get_running_loop().create_future()
            try:
                await waiter
            finally:
                if self._waiter is waiter:
                    self._waiter = None
        item = self._items.popleft()
        if item is None or isinstance(item, BaseException):
            self._items.appendleft(None)  # ended: every later read ends too
            if item is None:
                raise StopAsyncIteration
            raise item
        return item

    async def close(self) -> None:
        await self._owner._leave(self._channel, self)
        self.put_nowait(None)


class _Hub:
    """Local subscribers by channel; each message is handed to every one of its channel."""

    def __init__(self) -> None:
        self._subscribers: dict[str, set[_Queue]] = defaultdict(set)

    def _deliver(self, channel: str, message: dict[str, Any] | BaseException) -> None:
        for subscriber in list(self._subscribers.get(channel, ())):
            subscriber.put_nowait(message)

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


def player_channel(player_id: str) -> str:
    """A player's own channel: what every socket of theirs, in any process, is sent."""
    return f"bidak:player:{player_id}"
