"""The bus contract: ``memory://`` and ``redis://`` behave the same (style.md: broadcaster).

Every test runs against both backends. Redis tests skip when Redis is not running (and fail
under ``CI=true``); channel names are random so parallel runs never hear each other.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bidak.server.shared.bus import RESYNC, Bus, Subscription, bus_from_url
from tests.server import backends

pytestmark = pytest.mark.anyio
redis_url = backends.redis_url  # the fixture, here under its own name

WAIT = 5.0


@pytest.fixture(params=["memory", "redis"])
async def bus(request: pytest.FixtureRequest) -> AsyncIterator[Bus]:
    url = "memory://" if request.param == "memory" else request.getfixturevalue("redis_url")
    the_bus = bus_from_url(url)
    try:
        yield the_bus
    finally:
        await the_bus.close()


def channel() -> str:
    return f"bidak:test:{secrets.token_hex(8)}"


async def take(subscription: Subscription, count: int) -> list[dict[str, Any]]:
    """The next ``count`` messages of ``subscription`` (fails after WAIT seconds)."""
    received: list[dict[str, Any]] = []

    async def collect() -> None:
        async for message in subscription:
            received.append(message)
            if len(received) == count:
                return

    await asyncio.wait_for(collect(), WAIT)
    return received


async def nothing_more(subscription: Subscription, wait: float = 0.2) -> None:
    """No message arrives on ``subscription`` within ``wait`` seconds."""
    extra = await take_within(subscription, wait)
    assert extra is None, f"unexpected message {extra!r}"


async def take_within(subscription: Subscription, wait: float) -> dict[str, Any] | None:
    async def first() -> dict[str, Any] | None:
        async for message in subscription:
            return message
        return None

    try:
        return await asyncio.wait_for(first(), wait)
    except TimeoutError:
        return None


async def test_messages_arrive_in_the_order_they_were_published(bus: Bus) -> None:
    name = channel()
    subscription = await bus.subscribe(name)
    sent = [{"n": n, "events": [{"type": "rolled", "dice": [n % 6 + 1, 3]}]} for n in range(200)]
    for message in sent:
        await bus.publish(name, message)
    assert await take(subscription, len(sent)) == sent
    await subscription.close()


async def test_every_subscriber_gets_every_message_and_other_channels_get_none(bus: Bus) -> None:
    name, other = channel(), channel()
    first, second = await bus.subscribe(name), await bus.subscribe(name)
    elsewhere = await bus.subscribe(other)
    sent = [{"n": n, "text": "é ✓ \u2603", "none": None, "ok": True} for n in range(20)]
    for message in sent:
        await bus.publish(name, message)
    assert await take(first, 20) == sent
    assert await take(second, 20) == sent
    await nothing_more(elsewhere)
    for subscription in (first, second, elsewhere):
        await subscription.close()


async def test_a_subscriber_hears_only_what_is_published_after_it_subscribed(bus: Bus) -> None:
    name = channel()
    await bus.publish(name, {"n": 0})  # nobody listens: dropped, not an error
    subscription = await bus.subscribe(name)
    await bus.publish(name, {"n": 1})
    assert await take(subscription, 1) == [{"n": 1}]
    await subscription.close()


async def test_closing_a_subscription_ends_it_and_leaves_the_others(bus: Bus) -> None:
    name = channel()
    leaving, staying = await bus.subscribe(name), await bus.subscribe(name)
    await bus.publish(name, {"n": 1})
    assert await take(leaving, 1) == [{"n": 1}]

    async def drain() -> list[dict[str, Any]]:
        return [message async for message in leaving]

    reader = asyncio.create_task(drain())
    await asyncio.sleep(0.05)
    await leaving.close()
    assert await asyncio.wait_for(reader, WAIT) == [], "iteration ends once closed"
    await leaving.close()  # closing twice is harmless

    await bus.publish(name, {"n": 2})
    assert await take(staying, 2) == [{"n": 1}, {"n": 2}]
    await staying.close()


async def test_closing_the_bus_ends_every_subscription(bus: Bus) -> None:
    subscriptions = [await bus.subscribe(channel()) for _ in range(3)]

    async def drain(subscription: Subscription) -> int:
        return len([message async for message in subscription])

    readers = [asyncio.create_task(drain(s)) for s in subscriptions]
    await asyncio.sleep(0.05)
    await bus.close()
    assert await asyncio.wait_for(asyncio.gather(*readers), WAIT) == [0, 0, 0]


async def test_two_buses_on_one_url_share_channels_only_through_a_real_broker(
    bus: Bus, request: pytest.FixtureRequest
) -> None:
    """Redis carries messages between processes (here: two clients); memory:// never does."""
    is_redis = request.node.callspec.params["bus"] == "redis"
    url = request.getfixturevalue("redis_url") if is_redis else "memory://"
    other = bus_from_url(url)
    try:
        name = channel()
        subscription = await other.subscribe(name)
        await bus.publish(name, {"from": "elsewhere"})
        if is_redis:
            assert await take(subscription, 1) == [{"from": "elsewhere"}]
        else:
            await nothing_more(subscription)
        await subscription.close()
    finally:
        await other.close()


def test_an_unknown_bus_url_is_refused() -> None:
    with pytest.raises(ValueError, match="memory:// or redis://"):
        bus_from_url("kafka://127.0.0.1:9092")


async def test_a_lost_redis_connection_is_opened_again_and_subscribers_resync(
    redis_url: str,
) -> None:
    import redis.asyncio as redis

    name = f"bidak-test-{secrets.token_hex(4)}"
    bus = bus_from_url(redis_url, name=name)
    admin = redis.from_url(redis_url, decode_responses=True)
    try:
        first, second = channel(), channel()
        one = await bus.subscribe(first)
        two = await bus.subscribe(second)
        await bus.publish(first, {"n": 1})
        assert await take(one, 1) == [{"n": 1}]
        # Cut this bus's connections, as a network failure would.
        for client in await admin.client_list():
            if client.get("name") == name:
                await admin.client_kill_filter(_id=client["id"])
        # The subscriptions go on; each is told it may have missed something.
        for lost in (one, two):
            assert await take(lost, 1) == [{"kind": RESYNC}]
        await bus.publish(first, {"n": 2})
        assert await take(one, 1) == [{"n": 2}]
    finally:
        await bus.close()
        await admin.aclose()


async def test_a_subscription_redis_confirmed_late_is_resynced_once_it_is(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process that starts slowly (a busy machine) lets a player's table subscribe before its
    subscriber connection is open; what another process publishes meanwhile never reaches it,
    so once Redis confirms the channel the subscription is told to catch up from the store."""
    from bidak.server.shared import redis_bus as bus_module

    monkeypatch.setattr(bus_module, "CONFIRM_WAIT", 0.05)
    slow, other = bus_from_url(redis_url), bus_from_url(redis_url)
    assert isinstance(slow, bus_module.RedisBus)
    gate = asyncio.Event()
    make: Any = slow._subscriber_pool.make_connection

    def held() -> Any:
        conn = make()
        connect = conn.connect

        async def connect_when_let() -> None:
            await gate.wait()
            await connect()

        conn.connect = connect_when_let
        return conn

    monkeypatch.setattr(slow._subscriber_pool, "make_connection", held)
    try:
        name = channel()
        subscription = await slow.subscribe(name)  # went on without Redis's confirmation
        await other.publish(name, {"n": 1})  # lost: nobody holds the channel in Redis yet
        gate.set()
        assert await take(subscription, 1) == [{"kind": RESYNC}]
        await other.publish(name, {"n": 2})
        assert await take(subscription, 1) == [{"n": 2}]
    finally:
        await slow.close()
        await other.close()


async def test_a_crowd_of_publishes_at_once_all_arrive(bus: Bus) -> None:
    # After an event-loop stall (a full collection), or a group commit of many actions, a
    # process has hundreds of moves to publish at once: all arrive, in the order they were
    # made (with Redis they go in one pipeline a turn of the loop, one after the other).
    name = channel()
    subscription = await bus.subscribe(name)
    try:
        count = 500
        await asyncio.gather(*(bus.publish(name, {"n": n}) for n in range(count)))
        received = await take(subscription, count)
        assert [m["n"] for m in received] == list(range(count))
    finally:
        await subscription.close()
