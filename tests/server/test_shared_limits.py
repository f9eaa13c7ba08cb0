"""The limiter in memory and in Redis, the per-player limits, and the cap on open sockets.

The Redis tests run two server instances on one Redis and one PostgreSQL (as
``test_multi_instance`` does) and show that a limit, or the socket cap, holds over both. Every
Redis key they make begins with a random prefix (Redis is shared with other test runs).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from websockets.typing import Origin

from bidak.server.shared.clocks import ManualClock
from bidak.server.shared.limiter import Limiter, MemoryLimiter, RedisLimiter, Rule
from bidak.server.shared.sockets import LIST_SECONDS, REPLACED
from tests.server import backends
from tests.server.harness import Client, Running, running_server, server_settings
from tests.server.test_multi_instance import same_browser, two_instances

pytestmark = pytest.mark.anyio
postgres_url = backends.postgres_url
redis_url = backends.redis_url


@contextlib.asynccontextmanager
async def limiter(kind: str, request: pytest.FixtureRequest) -> AsyncIterator[Limiter]:
    if kind == "memory":
        yield MemoryLimiter()
        return
    url = request.getfixturevalue("redis_url")
    redis_limiter = RedisLimiter(url, f"bidak-test-{secrets.token_hex(6)}:")
    try:
        yield redis_limiter
    finally:
        await redis_limiter.close()


@pytest.mark.parametrize("kind", ["memory", "redis"])
async def test_a_limit_allows_a_burst_then_one_act_per_interval_by_the_given_clock(
    kind: str, request: pytest.FixtureRequest
) -> None:
    rule = Rule("test", rate=0.5, burst=2)
    now = 1_800_000_000.0
    async with limiter(kind, request) as limits:
        assert await limits.take(rule, "a", now) == 0.0
        assert await limits.take(rule, "a", now) == 0.0
        assert await limits.take(rule, "a", now) == pytest.approx(2.0)
        assert await limits.take(rule, "b", now) == 0.0, "another key has its own bucket"
        assert await limits.take(rule, "a", now + 1) == pytest.approx(1.0)
        assert await limits.take(rule, "a", now + 2) == 0.0
        assert await limits.take(rule, "a", now - 50) > 0, "time stepping back gives nothing"
        assert await limits.take(rule, "c", now, cost=2) == 0.0
        assert await limits.take(rule, "c", now + 3, cost=2) == pytest.approx(1.0)


@pytest.mark.parametrize("kind", ["memory", "redis"])
async def test_many_lookups_at_once_from_one_address_pass_while_its_allowance_lasts(
    kind: str, request: pytest.FixtureRequest
) -> None:
    """A whole site behind one proxy reconnects after an outage: a hundred room lookups at once
    from one address. Only a miss spends a token, so all pass; the misses then use it up."""
    from bidak.server.shared import lookups
    from bidak.server.shared.limiter import Limits

    now = 1_800_000_000.0
    async with limiter(kind, request) as limiter_:
        limits = Limits(
            limiter_,
            guests=Rule("g", 1, 1),
            rooms=Rule("r", 1, 1),
            room_misses=Rule.per_minute("room_misses", 10),
            hints=Rule("h", 1, 1),
            reviews=Rule("v", 1, 1),
            messages=Rule("m", 1, 1),
        )
        waits = await asyncio.gather(
            *(lookups.may_look_up(limits, "10.0.0.1", now) for _ in range(100))
        )
        assert waits == [0.0] * 100
        for _ in range(10):
            await lookups.missed(limits, "10.0.0.1", now)
        assert await lookups.may_look_up(limits, "10.0.0.1", now) == pytest.approx(6.0)
        assert await lookups.may_look_up(limits, "10.0.0.2", now) == 0.0, "another address"
        assert await lookups.may_look_up(limits, "10.0.0.1", now + 6) == 0.0


async def test_every_key_of_the_redis_limiter_expires_once_its_bucket_is_full_again(
    redis_url: str,
) -> None:
    import redis.asyncio as redis

    prefix = f"bidak-test-{secrets.token_hex(6)}:"
    limits = RedisLimiter(redis_url, prefix)
    client = redis.from_url(redis_url)
    try:
        rules = [Rule.per_minute("guests", 30), Rule("messages", 30, 60), Rule("slow", 0.01, 3)]
        for rule in rules:
            for key in ("203.0.113.7", "player-1"):
                await limits.take(rule, key, 1_800_000_000.0)
        keys = [key async for key in client.scan_iter(match=f"{prefix}*")]
        assert len(keys) == 6
        for rule in rules:
            for key in ("203.0.113.7", "player-1"):
                ttl = await client.ttl(limits.key(rule, key))
                assert 0 < ttl <= rule.refill_seconds + 1, (rule, ttl)
    finally:
        await client.delete(*[key async for key in client.scan_iter(match=f"{prefix}*")] or ["-"])
        await client.aclose()
        await limits.close()


async def practice_at_a_decision(guest: Client) -> dict[str, Any]:
    room: dict[str, Any] = (
        await guest.http.post(
            "/api/rooms", json={"kind": "practice", "length": 1, "level": "beginner"}
        )
    ).json()
    await guest.join(room["code"])
    while guest.table is None or "play" not in guest.table["allowed"]:
        await guest.receive()
    return room


async def test_hints_and_reviews_per_player_answer_429_past_the_limit(tmp_path: Path) -> None:
    clock = ManualClock()
    settings = server_settings(tmp_path, hints_per_minute=1, reviews_per_minute=1)
    async with (
        running_server(settings, clock) as running,
        Client(running) as guest,
        Client(running) as other,
    ):
        room = await practice_at_a_decision(guest)
        hint = f"/api/rooms/{room['code']}/hint"
        assert (await guest.http.get(hint, params={"level": "1ply"})).status_code == 200
        refused = await guest.http.get(hint, params={"level": "1ply"})
        assert refused.status_code == 429 and refused.headers["retry-after"] == "60"
        assert "hints" in refused.json()["detail"]

        review = f"/api/matches/{room['match_id']}/review"
        assert (await guest.http.get(review)).status_code == 200
        assert (await guest.http.get(review)).status_code == 200, "a kept review is free"
        second = await practice_at_a_decision(guest)
        refused = await guest.http.get(f"/api/matches/{second['match_id']}/review")
        assert refused.status_code == 429 and refused.headers["retry-after"] == "60"
        other_room = await practice_at_a_decision(other)
        assert (await other.http.get(f"/api/matches/{other_room['match_id']}/review")).is_success

        await clock.advance(60)
        assert (await guest.http.get(hint, params={"level": "1ply"})).status_code == 200


async def pings(client: Client, count: int) -> list[str]:
    """Send ``count`` pings; what came back for each, in order (``pong`` or an error code)."""
    for _ in range(count):
        await client.send({"type": "ping"})
    answers = []
    for _ in range(count):
        message = await client.receive()
        answers.append(message["type"] if message["type"] == "pong" else message["code"])
    return answers


async def one_player_on_two_sockets(a: Running, b: Running, clock: ManualClock) -> None:
    """A player's messages over a socket on ``a`` and one on ``b`` share one allowance."""
    async with contextlib.AsyncExitStack() as stack:
        first = await stack.enter_async_context(Client(a))
        second = await same_browser(stack, first, b)
        for client in (first, second):
            await client.connect()
        # The burst is 20, taken ten at a time: 15 on the first socket take all of it.
        assert await pings(first, 15) == ["pong"] * 15
        assert await pings(second, 1) == ["rate_limited"], "though this socket sent nothing"
        assert await pings(first, 6) == ["pong"] * 5 + ["rate_limited"]
        await clock.advance(10)  # 10 messages' worth at 1 a second
        assert await pings(second, 10) == ["pong"] * 10
        assert await pings(first, 1) == ["rate_limited"]


async def test_a_players_messages_are_limited_over_all_their_sockets(tmp_path: Path) -> None:
    clock = ManualClock()
    settings = server_settings(tmp_path, player_rate_per_second=1.0, player_rate_burst=20)
    async with running_server(settings, clock) as running:
        await one_player_on_two_sockets(running, running, clock)


async def test_a_players_messages_are_limited_over_two_processes(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    clock = ManualClock()
    async with two_instances(
        tmp_path, postgres_url, redis_url, clock, player_rate_per_second=1.0, player_rate_burst=20
    ) as (a, b):
        await one_player_on_two_sockets(a, b, clock)


async def closed_with(ws: Any) -> tuple[int | None, str]:
    """Wait for ``ws`` to be closed by the server: the close code and reason."""
    with pytest.raises(websockets.ConnectionClosed) as closed:
        while True:
            await ws.recv()
    frame = closed.value.rcvd
    return (frame.code, frame.reason) if frame else (None, "")


async def alive(ws: Any) -> bool:
    await ws.send(json.dumps({"type": "ping"}))
    return bool(json.loads(await ws.recv())["type"] == "pong")


async def forgotten(*runs: Running) -> None:
    """Wait (up to 10 s) until every process has noted that its sockets closed (the server
    notes a close after the closing handshake, which the client does not wait for)."""
    for _ in range(1000):
        if all(len(running.services.sockets) == 0 for running in runs):
            return
        await asyncio.sleep(0.01)
    raise AssertionError([len(running.services.sockets) for running in runs])


async def sockets_of_one_session(
    runs: list[Running], while_open: Callable[[], Awaitable[None]] | None = None
) -> None:
    """With a cap of 2, a session's third socket (opened on ``runs[2]``) closes its first."""
    async with httpx.AsyncClient(base_url=runs[0].base) as browser:
        (await browser.get("/api/me")).raise_for_status()
        cookie = "; ".join(f"{k}={v}" for k, v in browser.cookies.items())
        opened = []
        for running in runs:
            ws = await websockets.connect(
                running.ws_url, additional_headers={"Cookie": cookie}, origin=Origin(running.base)
            )
            opened.append(ws)
            assert await alive(ws)
        try:
            code, reason = await closed_with(opened[0])
            assert code == REPLACED and "too many connections" in reason
            assert await alive(opened[1]) and await alive(opened[2])
            if while_open is not None:
                await while_open()
            # Another session is not touched by this one's sockets.
            async with Client(runs[0]) as stranger:
                await stranger.connect()
                assert await alive(stranger.ws)
        finally:
            for ws in opened:
                await ws.close()


async def test_a_session_opening_too_many_sockets_loses_its_oldest(tmp_path: Path) -> None:
    async with running_server(server_settings(tmp_path, sockets_per_session=2)) as running:
        await sockets_of_one_session([running, running, running])
        await forgotten(running)  # closed sockets are forgotten


async def test_the_socket_cap_holds_over_two_processes(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    async with two_instances(tmp_path, postgres_url, redis_url, sockets_per_session=2) as (a, b):
        registry: Any = a.services.sockets.registry
        pattern = f"{a.services.settings.redis_prefix}sockets:*"

        async def listed_and_expiring() -> None:
            keys = [key async for key in registry._redis.scan_iter(match=pattern)]
            assert len(keys) == 1, "one session, one list"
            assert len(await registry._redis.lrange(keys[0], 0, -1)) == 2
            assert 0 < await registry._redis.ttl(keys[0]) <= LIST_SECONDS

        await sockets_of_one_session([a, b, b], listed_and_expiring)
        await forgotten(a, b)
        assert [key async for key in registry._redis.scan_iter(match=pattern)] == []
