"""The bus between server processes: Redis PUBLISH/SUBSCRIBE (:class:`RedisBus`), made by
:func:`bidak.server.shared.bus.bus_from_url` for a ``redis://`` URL; the in-process hub and what
every bus promises are in :mod:`bidak.server.shared.bus`."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import secrets
from collections.abc import Mapping
from typing import Any

import orjson

from bidak.server.shared.bus import RESYNC, BusLost, _Hub, _Queue

log = logging.getLogger(__name__)

PUBLISH_CONNECTIONS = 16
"""Connections a process publishes on at once (a publish takes a fraction of a millisecond)."""
PUBLISH_WAIT = 10.0
"""Seconds a publish may wait for a free connection before it fails."""
CONNECT_TIMEOUT = 2.0
"""Seconds a connection to Redis may take to open (a host that drops packets fails by then)."""
BACKOFF_FIRST, BACKOFF_CAP = 0.05, 0.5
"""Seconds before the subscriber connection is tried again after a loss: the first wait, and
the most it doubles to (each wait is drawn between half and all of it)."""
CONFIRM_WAIT = 2.0
"""Seconds a new subscription waits for Redis to confirm it before going on without it (it is
handed :data:`RESYNC` once Redis does: whatever it missed is caught up from the store)."""
HEARTBEAT_SECONDS = 2.0
"""How often a process publishes a heartbeat it expects to hear on its own subscriber."""
HEARD_WITHIN = 3
"""Heartbeat periods a heartbeat may take to be heard (a loaded process, a full collection)."""
UNSENT_KEPT = 10_000
"""Channels whose last failed message is kept to publish again when Redis is back."""
AGAIN = "bus_from"
"""The field of a message its process handed to its own subscribers itself (it published it
while its subscriber was down, or again once Redis was back): that process's id, so its
subscriber skips it."""


class RedisBus(_Hub):
    """Several processes: Redis PUBLISH/SUBSCRIBE carries JSON messages.

    A process holds one subscriber connection, whatever the number of its subscribers, owned
    by one task: it subscribes a channel when its first local subscriber arrives and
    unsubscribes when the last leaves, decodes each message once and hands it to every local
    subscriber. When that connection is lost (Redis restarted, the connection killed), the task
    opens another, with backoff, and subscribes every channel this process holds at once, as a
    whole; once Redis has confirmed them, every subscriber is handed :data:`RESYNC` (what was
    published meanwhile is missing: catch up from the store).

    While the subscriber is down, a publish is handed to this process's subscribers directly
    (tables whose players are all here keep playing) and sent through Redis if it answers; a
    message Redis refused is published again once it is back (the last one of each channel).
    Nothing of the driver's reaches the caller: a subscription never fails for an outage, and a
    publish never raises one.

    A heartbeat checks that the subscriber still hears: every :data:`HEARTBEAT_SECONDS` the
    process publishes on a channel of its own and waits to hear it. Once unheard, the
    subscriber connection is opened again (every channel subscribed again, every subscriber
    resynchronised); unheard again after that, every subscription ends with :class:`BusLost`
    (the WebSockets tell their clients to reconnect, to another process if there is one).
    """

    def __init__(
        self, url: str, name: str | None = None, heartbeat: float = HEARTBEAT_SECONDS
    ) -> None:
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
            socket_connect_timeout=CONNECT_TIMEOUT,
            retry=Retry(ExponentialBackoff(cap=0.5), 3),
            retry_on_error=[ConnectionError, TimeoutError],
        )
        self._redis = redis.Redis.from_pool(pool)
        # The subscriber connection is never reconnected behind this class's back: what was
        # published meanwhile would be missing without anybody knowing.
        self._subscriber_pool = redis.ConnectionPool.from_url(
            url,
            protocol=2,  # messages as replies (RESP3 would hand them to a push handler)
            decode_responses=True,
            client_name=name,
            socket_connect_timeout=CONNECT_TIMEOUT,
            retry=Retry(NoBackoff(), 0),
        )
        self._conn: Any = None
        """The subscriber connection while one is open (subscribed or being subscribed)."""
        self.up = False
        """Whether the subscriber connection holds every channel (Redis confirmed them)."""
        self._confirming: dict[str, asyncio.Future[None]] = {}
        self._late: set[str] = set()
        """Channels whose new subscriber went on before Redis confirmed them (a slow start, a
        busy machine): whatever was published before the confirmation is missing, so each is
        handed :data:`RESYNC` once Redis confirms it."""
        self._unsent: dict[str, dict[str, Any]] = {}
        self._id = secrets.token_hex(8)
        self._alive = f"bidak:bus:alive:{self._id}"
        self._heartbeat = heartbeat
        self._heard = 0
        self._hearing = asyncio.Event()
        self._wake = asyncio.Event()
        """Set when a publish went through while the subscriber was down: Redis is back, so
        the subscriber tries at once instead of at the end of its backoff."""
        self._tried = asyncio.Event()
        """Set once the subscriber connection was first tried (it holds every channel, or
        failed: then every subscriber is resynchronised when it is back)."""
        self._tasks: list[asyncio.Task[None]] = []
        self._waiting: list[tuple[str, bytes, asyncio.Future[None]]] = []
        """Publishes not yet sent: they go to Redis together (:meth:`_send`)."""
        self._sender: asyncio.Task[None] | None = None
        self._again: asyncio.Task[None] | None = None
        self._closing = False
        self.reconnects = 0
        """Subscriber connections opened after the first (for tests and logs)."""

    def _start(self) -> None:
        if not self._tasks and not self._closing:
            self._tasks = [
                asyncio.create_task(self._subscriber(), name="bus subscriber"),
                asyncio.create_task(self._self_check(), name="bus heartbeat"),
            ]

    async def start(self) -> None:
        """Open the subscriber connection now (it is opened at the first use otherwise)."""
        self._start()

    async def publish(self, channel: str, message: Mapping[str, Any]) -> None:
        from redis.exceptions import RedisError

        self._start()
        data = orjson.dumps(message)
        local = not self.up  # the subscriber may not hear it: hand it over here
        if local:
            self._deliver(channel, dict(message))
            # ... and let the subscriber skip it, should it be back before Redis carries it.
            data = orjson.dumps({**message, AGAIN: self._id})
        try:
            await self._send(channel, data)
            if local:
                self._wake.set()
        except (RedisError, OSError) as failed:
            if not local:
                self._deliver(channel, dict(message))
            self._keep_unsent(channel, dict(message))
            log.debug("publish on %s went to this process only: %r", channel, failed)

    async def _send(self, channel: str, data: bytes) -> None:
        """PUBLISH ``data``, together with every publish of the same turn of the event loop:
        one pipeline a turn, sent by one task, in the order they were made (a channel's messages
        keep their order). A publish of its own took a pooled connection, a retry wrapper and a
        round trip each: 12% of a process's CPU at 500 live matches (py-spy, issue 41), against
        the group commit that hands the loop every action of a batch at once."""
        done = asyncio.get_running_loop().create_future()
        self._waiting.append((channel, data, done))
        if self._sender is None:
            self._sender = asyncio.create_task(self._send_waiting(), name="bus publisher")
        await done

    async def _send_waiting(self) -> None:
        try:
            while self._waiting:
                batch, self._waiting = self._waiting, []
                try:
                    async with self._redis.pipeline(transaction=False) as pipe:
                        for channel, data, _ in batch:
                            pipe.publish(channel, data)
                        await pipe.execute()
                except Exception as failed:
                    for _, _, done in batch:
                        if not done.done():
                            done.set_exception(failed)
                else:
                    for _, _, done in batch:
                        if not done.done():
                            done.set_result(None)
        finally:
            self._sender = None

    def _keep_unsent(self, channel: str, message: dict[str, Any]) -> None:
        self._unsent.pop(channel, None)
        self._unsent[channel] = message
        while len(self._unsent) > UNSENT_KEPT:
            self._unsent.pop(next(iter(self._unsent)))

    async def subscribe(self, channel: str) -> _Queue:
        self._start()
        if not self._tried.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._tried.wait(), CONFIRM_WAIT)
        first = channel not in self._subscribers
        subscription = await self._join(channel)
        conn = self._conn
        if first and conn is not None and conn.is_connected:
            waiting = self._confirming.get(channel)
            if waiting is None or waiting.done():
                waiting = self._confirming[channel] = asyncio.get_running_loop().create_future()
            with contextlib.suppress(Exception):  # a lost connection subscribes all again
                await conn.send_command("SUBSCRIBE", channel, check_health=False)
        waiting = self._confirming.get(channel)
        if waiting is not None:
            try:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(waiting), CONFIRM_WAIT)
            except BaseException:  # cancelled: nobody will close it
                await subscription.close()
                raise
        if not self.up or (waiting is not None and not waiting.done()):
            self._late.add(channel)
        return subscription

    async def _leave(self, channel: str, subscription: _Queue) -> None:
        await super()._leave(channel, subscription)
        conn = self._conn
        if channel in self._subscribers:
            return
        self._late.discard(channel)
        if conn is not None and conn.is_connected:
            with contextlib.suppress(Exception):  # a lost connection has no channels anyway
                await conn.send_command("UNSUBSCRIBE", channel, check_health=False)

    async def _subscriber(self) -> None:
        """Keep one subscriber connection holding every channel, reopening it after a loss."""
        import random

        backoff, missed = BACKOFF_FIRST, False
        while not self._closing:
            conn: Any = self._subscriber_pool.make_connection()  # type: ignore[no-untyped-call]
            try:
                await conn.connect()
                self._conn = conn
                channels = [self._alive, *self._subscribers]
                await conn.send_command("SUBSCRIBE", *channels, check_health=False)
                # Redis answers a PING after every channel before it is subscribed.
                await conn.send_command("PING", "bidak:subscribed", check_health=False)
                await self._read(conn, missed)
            except asyncio.CancelledError:
                raise
            except Exception as lost:
                self._tried.set()
                if self._closing:
                    return
                if self.up or not missed:
                    log.warning("the Redis bus is lost (%r); trying again", lost)
                    backoff = BACKOFF_FIRST
            finally:
                self.up = False
                self._conn = None
                for waiting in self._confirming.values():
                    if not waiting.done():
                        waiting.set_result(None)  # subscribed again, as a whole, when back
                self._confirming.clear()
                with contextlib.suppress(Exception):
                    await conn.disconnect(nowait=True)
            missed = True
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), backoff * random.uniform(0.5, 1.0))
            backoff = min(2 * backoff, BACKOFF_CAP)

    async def _read(self, conn: Any, missed: bool) -> None:
        while True:
            reply = await conn.read_response(timeout=math.inf)
            kind = reply[0] if isinstance(reply, list) and reply else None
            if kind == "message":
                channel, data = reply[1], reply[2]
                if channel == self._alive:
                    self._heard = max(self._heard, int(data))
                    self._hearing.set()
                elif channel in self._subscribers:
                    message = orjson.loads(data)
                    if AGAIN in message and message.pop(AGAIN) == self._id:
                        continue  # this process's own: its subscribers had it
                    self._deliver(channel, message)
            elif kind == "subscribe":
                waiting = self._confirming.pop(reply[1], None)
                if waiting is not None and not waiting.done():
                    waiting.set_result(None)
                if reply[1] in self._late:
                    self._late.discard(reply[1])
                    if self.up or not missed:  # after a loss, the pong resyncs every channel
                        self._deliver(reply[1], {"kind": RESYNC})
            elif kind == "pong" and not self.up:
                self.up = True
                self._tried.set()
                if missed:
                    self.reconnects += 1
                    log.warning(
                        "the Redis bus is back: %d channels subscribed again",
                        len(self._subscribers),
                    )
                    for channel in list(self._subscribers):
                        self._deliver(channel, {"kind": RESYNC})
                    unsent, self._unsent = self._unsent, {}
                    if unsent:
                        self._again = asyncio.create_task(self._publish_again(unsent))

    async def _publish_again(self, unsent: dict[str, dict[str, Any]]) -> None:
        """Send what Redis refused while it was away (the last message of each channel):
        another process that did not lose its subscriber learns of it now. (This process's
        subscribers had it when it was published; they skip it.)"""
        for channel, message in unsent.items():
            with contextlib.suppress(Exception):
                await self._redis.publish(channel, orjson.dumps({**message, AGAIN: self._id}))

    async def _self_check(self) -> None:
        """Publish a heartbeat and expect to hear it; resubscribe, then give up, when not."""
        sent, strikes = 0, 0
        while not self._closing:
            await asyncio.sleep(self._heartbeat)
            if not self.up:
                strikes = 0
                continue
            sent += 1
            self._hearing.clear()
            try:
                await self._redis.publish(self._alive, str(sent))
                deadline = asyncio.get_running_loop().time() + HEARD_WITHIN * self._heartbeat
                while self._heard < sent:
                    left = deadline - asyncio.get_running_loop().time()
                    await asyncio.wait_for(self._hearing.wait(), max(left, 0.0))
                    self._hearing.clear()
            except asyncio.CancelledError:
                raise
            except Exception:
                if not self.up:
                    continue  # the subscriber was lost meanwhile: it is reopening anyway
                strikes += 1
                if strikes == 1:
                    log.warning("the Redis bus is deaf (no heartbeat heard); resubscribing")
                else:
                    log.error(
                        "the Redis bus is still deaf after resubscribing; "
                        "telling every client to reconnect"
                    )
                    failure = BusLost("this process no longer hears the bus")
                    for channel in list(self._subscribers):
                        self._deliver(channel, failure)
                    self._subscribers.clear()
                await self._drop()
                continue
            strikes = 0

    async def _drop(self) -> None:
        """Close the subscriber connection: its task opens another and subscribes again."""
        conn = self._conn
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.disconnect(nowait=True)  # the reader's read fails at once

    async def close(self) -> None:
        """End every subscription (their loops finish, as with the memory bus), then disconnect."""
        self._closing = True
        await super().close()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        sender = self._sender
        if sender is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender
        await self._redis.aclose()
        await self._subscriber_pool.aclose()
