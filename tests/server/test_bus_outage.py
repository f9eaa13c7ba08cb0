"""Redis goes away and comes back: the bus degrades instead of failing (issue 29).

Each test starts a Redis of its own (:mod:`tests.server.own_redis`) and kills it: subscribing
and publishing go on without raising, this process's subscribers keep hearing this process's
messages, and when Redis is back one subscriber connection holds every channel again and every
subscriber is told to resynchronise. A heartbeat finds a subscriber that hears nothing.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from typing import Any

import pytest
import redis.asyncio as redis

from bidak.server.shared.bus import RESYNC, BusLost, Subscription
from bidak.server.shared.redis_bus import RedisBus
from tests.server.own_redis import OwnRedis, own_redis

pytestmark = pytest.mark.anyio
__all__ = ["own_redis"]

WAIT = 10.0


def channel() -> str:
    return f"bidak:test:{secrets.token_hex(6)}"


async def eventually(check: Callable[[], Any], what: str, wait: float = WAIT) -> None:
    """Poll ``check`` (a function or a coroutine function) until it is true, or fail."""
    loop = asyncio.get_running_loop()
    end = loop.time() + wait
    while True:
        result = check()
        if asyncio.iscoroutine(result):
            result = await result
        if result:
            return
        if loop.time() > end:
            raise AssertionError(f"not within {wait:g} s: {what}")
        await asyncio.sleep(0.02)


async def take(subscription: Subscription, wait: float = WAIT) -> dict[str, Any]:
    async def first() -> dict[str, Any]:
        async for message in subscription:
            return message
        raise AssertionError("the subscription ended")

    return await asyncio.wait_for(first(), wait)


async def subscribers(url: str, name: str) -> list[dict[str, Any]]:
    """The connections named ``name`` that hold subscriptions, as ``CLIENT LIST`` shows them."""
    admin = redis.from_url(url, decode_responses=True)
    try:
        return [
            c
            for c in await admin.client_list()
            if c.get("name") == name and int(c.get("sub", 0)) > 0
        ]
    finally:
        await admin.aclose()


async def test_while_redis_is_down_this_process_hears_itself_and_then_everyone_resyncs(
    own_redis: OwnRedis,
) -> None:
    here, there = RedisBus(own_redis.url, "here"), RedisBus(own_redis.url, "there")
    try:
        table = channel()
        watching = await here.subscribe(table)
        await there.start()
        await eventually(lambda: here.up and there.up, "both buses up")
        own_redis.stop()
        await eventually(lambda: not here.up, "the loss noticed")
        # Players at the same process go on playing: the move reaches the other at once.
        await here.publish(table, {"n": 1})
        assert await take(watching) == {"n": 1}
        # A socket that arrives meanwhile is subscribed all the same (no driver error).
        later = channel()
        arriving = await asyncio.wait_for(here.subscribe(later), WAIT)
        await there.publish(later, {"late": True})  # nobody can carry it: no error either

        await own_redis.start_async()
        assert await take(watching) == {"kind": RESYNC}
        assert await take(arriving) == {"kind": RESYNC}
        await eventually(lambda: there.up, "the other process back")
        await there.publish(later, {"n": 2})
        message = await take(arriving)
        if message == {"late": True}:  # sent again once Redis was back, if this one was first
            message = await take(arriving)
        assert message == {"n": 2}
        await there.publish(table, {"n": 3})
        assert await take(watching) == {"n": 3}
        assert len(await subscribers(own_redis.url, "here")) == 1
    finally:
        await here.close()
        await there.close()


async def test_one_subscriber_connection_holds_every_channel_after_restarts(
    own_redis: OwnRedis,
) -> None:
    """Subscriptions made while Redis stops and starts again end up on one connection."""
    bus, other = RedisBus(own_redis.url, "one"), RedisBus(own_redis.url, "other")
    try:
        await other.start()
        names = [channel() for _ in range(60)]
        held = {name: await bus.subscribe(name) for name in names[:20]}
        for _ in range(3):
            wanted = [name for name in names if name not in held]
            arriving = [asyncio.create_task(bus.subscribe(name)) for name in wanted]
            await asyncio.sleep(0)
            own_redis.stop()
            await asyncio.sleep(0.05)
            await own_redis.start_async()
            for task in arriving[len(arriving) // 2 :]:
                task.cancel()  # a socket that closed while it was being subscribed
            for name, done in zip(
                wanted, await asyncio.gather(*arriving, return_exceptions=True), strict=True
            ):
                if not isinstance(done, BaseException):
                    held[name] = done
            await eventually(lambda: bus.up and other.up, "both buses back")

        connections = await subscribers(own_redis.url, "one")
        assert len(connections) == 1, connections
        assert int(connections[0]["sub"]) == len(held) + 1  # and the heartbeat's channel
        for n, name in enumerate(held):
            await other.publish(name, {"n": n})
        for n, subscription in enumerate(held.values()):
            message = await take(subscription)
            while message == {"kind": RESYNC}:
                message = await take(subscription)
            assert message == {"n": n}
    finally:
        await bus.close()
        await other.close()


def deaf_while(bus: RedisBus, deaf: Callable[[], bool]) -> None:
    """Make ``bus``'s subscriber hear no message while ``deaf()`` is true (as when Redis holds
    its subscriptions on a connection that nobody reads)."""
    original = bus._subscriber_pool.make_connection

    def make() -> Any:
        conn: Any = original()  # type: ignore[no-untyped-call]
        read = conn.read_response

        async def read_response(*args: Any, **options: Any) -> Any:
            while True:
                reply = await read(*args, **options)
                if not (deaf() and isinstance(reply, list) and reply[0] == "message"):
                    return reply

        conn.read_response = read_response
        return conn

    bus._subscriber_pool.make_connection = make  # type: ignore[method-assign]


async def test_a_deaf_subscriber_is_opened_again_and_everyone_resyncs(
    own_redis: OwnRedis,
) -> None:
    bus = RedisBus(own_redis.url, "deaf-once", heartbeat=0.2)
    other = RedisBus(own_redis.url, "teller")
    await other.start()
    try:
        table = channel()
        watching = await bus.subscribe(table)
        await eventually(lambda: bus.up, "up")
        # The connection open now goes deaf: the heartbeat finds it and opens another.
        deaf = bus._conn
        read = deaf.read_response

        async def deaf_read(*args: Any, **options: Any) -> Any:
            while True:
                reply = await read(*args, **options)
                if not (isinstance(reply, list) and reply[0] == "message"):
                    return reply

        deaf.read_response = deaf_read
        assert await take(watching) == {"kind": RESYNC}
        assert bus._conn is not deaf
        await other.publish(table, {"n": 1})
        assert await take(watching) == {"n": 1}
    finally:
        await bus.close()
        await other.close()


async def test_a_subscriber_still_deaf_after_resubscribing_ends_every_subscription(
    own_redis: OwnRedis,
) -> None:
    bus = RedisBus(own_redis.url, "deaf", heartbeat=0.2)
    try:
        watching = await bus.subscribe(channel())
        await eventually(lambda: bus.up, "up")
        deaf_while(bus, lambda: True)
        await bus._drop()  # the next connections are all deaf
        with pytest.raises(BusLost):
            while True:
                message = await take(watching)
                assert message == {"kind": RESYNC}
    finally:
        await bus.close()
