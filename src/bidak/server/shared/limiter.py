"""Limits that hold across processes: token buckets in memory, or in Redis with a Redis bus.

One site may run as several processes (``--workers N``, several hosts). A limit counted in each
process's memory lets N processes allow N times as much, so with a Redis bus every bucket lives
in Redis: one Lua script refills and takes atomically, and every key it writes expires once the
bucket would be full again (a full bucket carries nothing worth keeping). The time is the
server's injected clock, passed to the script, so tests move time instead of sleeping.

If Redis cannot be reached, a limit lets the act through (and logs why): refusing every new
player and every room while Redis restarts would hurt the site more than a minute without
limits. The bus itself needs Redis, so such an outage is seen at once.
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from bidak.server.shared.limits import Buckets

if TYPE_CHECKING:
    from bidak.server.shared.settings import Settings

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Rule:
    """One limit: ``rate`` acts a second on average per key, in bursts of up to ``burst``."""

    name: str
    rate: float
    burst: float

    @classmethod
    def per_minute(cls, name: str, count: float) -> Rule:
        """``count`` acts a minute, in bursts of as many."""
        return cls(name, count / 60, count)

    @property
    def refill_seconds(self) -> float:
        """How long an empty bucket takes to fill again."""
        return self.burst / self.rate


class Limiter(Protocol):
    async def take(
        self, rule: Rule, key: str, now: float, cost: float = 1.0, need: float | None = None
    ) -> float:
        """Take ``cost`` tokens from ``key``'s bucket under ``rule`` if ``need`` (by default
        ``cost``) are there: 0.0 if they were (the act may go ahead), else the seconds until
        they will be. ``cost`` 0 and ``need`` 1 ask without taking anything."""
        ...

    async def close(self) -> None: ...


class MemoryLimiter:
    """This process's memory: right for one process (the default, with the in-process bus)."""

    def __init__(self, size: int = 100_000) -> None:
        self._size = size
        self._rules: dict[Rule, Buckets] = {}

    async def take(
        self, rule: Rule, key: str, now: float, cost: float = 1.0, need: float | None = None
    ) -> float:
        buckets = self._rules.get(rule)
        if buckets is None:
            buckets = self._rules[rule] = Buckets(rule.rate, rule.burst, self._size)
        return buckets.take(key, now, cost, need)

    async def close(self) -> None:
        self._rules.clear()


# KEYS[1]: the bucket (a hash: t = tokens, at = when they were counted).
# ARGV: rate, burst, now, cost, seconds the key is kept, tokens needed. Returns the wait, as
# text (Redis turns a Lua number into an integer).
TAKE = """
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local cost = tonumber(ARGV[4])
local kept = tonumber(ARGV[5])
local need = tonumber(ARGV[6])
local state = redis.call('HMGET', KEYS[1], 't', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil or at == nil then
  tokens = burst
  at = now
end
if now > at then
  tokens = math.min(burst, tokens + (now - at) * rate)
  at = now
end
local wait = 0
if tokens >= need then
  tokens = tokens - cost
else
  wait = (need - tokens) / rate
end
redis.call('HSET', KEYS[1], 't', string.format('%.6f', tokens), 'at', string.format('%.6f', at))
redis.call('EXPIRE', KEYS[1], kept)
return string.format('%.6f', wait)
"""

FAILURE_LOG_SECONDS = 60.0
"""At most one warning this often while Redis cannot be reached."""
REDIS_CONNECTIONS = 16
"""Connections a process counts limits on at once (a count takes a fraction of a millisecond);
more wait for one, up to :data:`REDIS_WAIT`."""
REDIS_WAIT = 2.0
PAUSE_SECONDS = 1.0
"""After Redis failed to answer, how long the limits let everything through without asking it
(while Redis is away, asking would cost every message a failed connection)."""


def redis_client(url: str, name: str | None, decode: bool = False) -> Any:
    """A Redis client on a bounded pool: a burst of requests waits for a connection instead of
    opening hundreds (and past :data:`REDIS_WAIT` seconds the caller lets the act through)."""
    import redis.asyncio as redis
    from redis.asyncio.retry import Retry
    from redis.backoff import NoBackoff

    pool = redis.BlockingConnectionPool.from_url(
        url,
        max_connections=REDIS_CONNECTIONS,
        timeout=REDIS_WAIT,
        client_name=name,
        socket_timeout=REDIS_WAIT,
        socket_connect_timeout=REDIS_WAIT,
        # Once more at once (a pooled connection Redis closed when it restarted), never after
        # a pause: redis-py's default backs off for seconds, which a message would wait for.
        retry=Retry(NoBackoff(), 1),
        decode_responses=decode,
    )
    return redis.Redis.from_pool(pool)


class RedisLimiter:
    """Buckets in Redis, shared by every process of the site.

    Keys: ``{prefix}limit:{rule}:{key}``."""

    def __init__(self, url: str, prefix: str = "bidak:", name: str | None = None) -> None:
        self._redis: Any = redis_client(url, name)
        self._take: Any = self._redis.register_script(TAKE)
        self.prefix = prefix
        self._warned = -math.inf
        self._paused_until = -math.inf

    def key(self, rule: Rule, key: str) -> str:
        return f"{self.prefix}limit:{rule.name}:{key}"

    async def take(
        self, rule: Rule, key: str, now: float, cost: float = 1.0, need: float | None = None
    ) -> float:
        kept = math.ceil(rule.refill_seconds) + 1
        need = cost if need is None else need
        args = [repr(rule.rate), repr(rule.burst), repr(now), repr(cost), kept, repr(need)]
        if time.monotonic() < self._paused_until:
            return 0.0
        try:
            wait = await self._take(keys=[self.key(rule, key)], args=args)
        except Exception as failed:
            self._paused_until = time.monotonic() + PAUSE_SECONDS
            self._warn(failed)
            return 0.0
        return float(wait)

    def _warn(self, failed: Exception) -> None:
        now = time.monotonic()
        if now - self._warned >= FAILURE_LOG_SECONDS:
            self._warned = now
            log.warning("limits are not counted: Redis did not answer (%s)", failed)

    async def close(self) -> None:
        await self._redis.aclose()


def limiter_for(bus_url: str, prefix: str, name: str | None = None) -> Limiter:
    """Redis when the site's bus is Redis (several processes), else this process's memory."""
    from bidak.server.shared.bus import REDIS_SCHEMES

    if bus_url.startswith(REDIS_SCHEMES):
        return RedisLimiter(bus_url, prefix, name)
    return MemoryLimiter()


MESSAGE_LEASE = 10
"""WebSocket messages a connection takes from its player's shared bucket at a time: one trip
to Redis per ten messages instead of one per message (see :class:`MessageAllowance`)."""


@dataclass(frozen=True)
class Limits:
    """The site's limits, on one limiter."""

    limiter: Limiter
    guests: Rule
    """New guests, by client address."""
    rooms: Rule
    """New rooms, by player."""
    room_misses: Rule
    """Unknown room codes asked for, by client address (rooms/lookups.py)."""
    hints: Rule
    """Engine hints, by player."""
    reviews: Rule
    """Match reviews the engine must work out (kept ones are free), by player."""
    messages: Rule
    """WebSocket messages, by player over all their connections and processes."""
    changes: Rule = Rule("changes", 2.0, 120)
    """Requests that change something (POST, PUT, PATCH, DELETE), by player over all routes: 120
    a minute in bursts of 120, the floor under every state-changing route (docs/security.md)."""
    exports: Rule = Rule("exports", 5 / 3600, 5)
    """Exports of one's own data (a zip of every match), by player: 5 an hour."""
    pictures: Rule = Rule("pictures", 10 / 60, 10)
    """Share pictures not drawn before, by player: 10 a minute (a repeat is free)."""
    pictures_address: Rule = Rule("pictures_address", 30 / 60, 30)
    """Share pictures not drawn before, by client address: 30 a minute."""
    tournaments: Rule = Rule("tournaments", 3 / 3600, 3)
    """Tournaments made, by player: 3 an hour."""
    challenges: Rule = Rule("challenges", 10 / 3600, 10)
    """Challenges made, by player: 10 an hour (``bidak.challenges.PER_HOUR``)."""
    talk: Rule = Rule("talk", 1 / 3, 1)
    """Table talk phrases, by player: one every 3 seconds."""
    email_address: Rule = Rule("email_address", 3 / 3600, 3)
    """Letters with a one-time link, by e-mail address *and* client address: 3 an hour, so
    whoever asks for somebody else's address uses up their own allowance, not the owner's."""
    email_ceiling: Rule = Rule("email_ceiling", 20 / 3600, 20)
    """Letters with a one-time link, by e-mail address over all clients: 20 an hour (what a
    mailbox receives at most, however many clients ask)."""
    email_client: Rule = Rule("email_client", 10 / 3600, 10)
    """Letters with a one-time link, by client address: 10 an hour."""
    unsubscribes: Rule = Rule("unsubscribes", 1.0, 60)
    """One-click unsubscribes (RFC 8058), by client address: 60 a minute in bursts of 60. A
    mail provider posts them for all its users from few addresses, so the allowance is wide;
    each also spends its player's ``changes``."""

    @classmethod
    def from_settings(cls, settings: Settings, limiter: Limiter) -> Limits:
        return cls(
            limiter,
            guests=Rule.per_minute("guests", settings.guests_per_minute),
            rooms=Rule.per_minute("rooms", settings.rooms_per_minute),
            room_misses=Rule.per_minute("room_misses", settings.room_misses_per_minute),
            hints=Rule.per_minute("hints", settings.hints_per_minute),
            reviews=Rule.per_minute("reviews", settings.reviews_per_minute),
            messages=Rule("messages", settings.player_rate_per_second, settings.player_rate_burst),
        )

    async def wait(self, rule: Rule, key: str, now: float, cost: float = 1.0) -> float:
        """0.0 if ``key`` may act now under ``rule`` (the act is counted), else the seconds
        until it may."""
        return await self.limiter.take(rule, key, now, cost)

    async def peek(self, rule: Rule, key: str, now: float) -> float:
        """0.0 if ``key`` holds a whole token under ``rule``, else the seconds until it will;
        nothing is taken (a check that many requests make at once cannot use the bucket up)."""
        return await self.limiter.take(rule, key, now, 0.0, 1.0)


class MessageAllowance:
    """One connection's share of its player's message bucket, taken ``lease`` at a time.

    Every message passes through here, so the shared bucket (in Redis, with several processes)
    is asked only once per ``lease`` messages; a refusal is remembered locally until its wait is
    over. A player's connections can together run ahead of the bucket by at most ``lease``
    messages each.
    """

    __slots__ = ("_blocked_until", "_key", "_lease", "_left", "_limits")

    def __init__(self, limits: Limits, key: str, lease: int = MESSAGE_LEASE) -> None:
        self._limits, self._key = limits, key
        self._lease = max(1, min(lease, int(limits.messages.burst)))
        self._left = 0
        self._blocked_until = -math.inf

    async def take(self, now: float) -> float:
        """0.0 if one more message may go, else the seconds until one may."""
        if self._left > 0:
            self._left -= 1
            return 0.0
        if now < self._blocked_until:
            return self._blocked_until - now
        rule = self._limits.messages
        wait = await self._limits.wait(rule, self._key, now, self._lease)
        if wait > 0:
            self._blocked_until = now + wait
            return wait
        self._left = self._lease - 1
        return 0.0
