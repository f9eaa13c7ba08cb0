"""Web Push: a notification goes to the player's browsers too, unless they are looking at it.

A channel of :class:`~bidak.server.notifications.service.Notifications`: each notification
stored is handed to :meth:`Push.told`, which, when the player wants that kind pushed, stores one
push due ``BIDAK_PUSH_DELAY_SECONDS`` later for each of the player's browsers (``push_due``).
When it comes due the process that takes it (a lease in the row: one process sends it, and
another takes it over if that one dies) checks again and sends only if the notification is
still unread, the player still wants it, the browser's session is still signed in and the
player is not at that match's table (:mod:`bidak.server.shared.presence`). The push is the
payload of :func:`~.push_rules.payload`, encrypted for the browser (aes128gcm, RFC 8291, with
pywebpush), signed with the site's VAPID key (:mod:`.vapid`) and POSTed with httpx, never on a
thread and never blocking the loop. 404 or 410 from the push service drops the subscription;
other failures are tried again (:data:`~.push_rules.RETRIES`), then given up.

Pushes due survive a restart: they are rows, and every process sweeps for overdue ones every
``BIDAK_SWEEP_SECONDS`` besides the timer it arms for the pushes it stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections import Counter
from collections.abc import Coroutine
from functools import partial
from typing import Any

import httpx
from pywebpush import WebPusher

from bidak.server.notifications import push_queries
from bidak.server.notifications.push_queries import NewSubscription, Taken
from bidak.server.notifications.push_rules import (
    GONE,
    LEASE_SECONDS,
    MAX_SUBSCRIPTIONS,
    Subscription,
    check_endpoint,
    check_keys,
    headers,
    language_of,
    next_try,
    payload,
)
from bidak.server.notifications.service import Notifications, Told
from bidak.server.notifications.vapid import Vapid
from bidak.server.shared.clocks import Clock
from bidak.server.shared.presence import Presence
from bidak.server.shared.settings import Settings
from bidak.server.shared.store.db import Database, KeyTaken, StorageError

log = logging.getLogger(__name__)

SEND_TIMEOUT = 10.0
"""Seconds a push service has to answer a push."""
AT_ONCE = 16
"""Pushes one process sends at the same time."""
SETTLE_CHECKS = 4000


def endpoint_hash(endpoint: str) -> str:
    return hashlib.sha256(endpoint.encode("utf-8")).hexdigest()


class Push:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        notifications: Notifications,
        presence: Presence,
        settings: Settings,
    ) -> None:
        self.db, self.clock, self.notifications = db, clock, notifications
        self.presence, self.settings = presence, settings
        self.vapid: Vapid | None = None
        self.counts: Counter[str] = Counter()
        """What became of the pushes this process took: sent, gone, failed, given_up,
        skipped (read meanwhile, at the table, switched off, signed out)."""
        self._http: httpx.AsyncClient | None = None
        self._busy: set[asyncio.Task[None]] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._sending = asyncio.Semaphore(AT_ONCE)
        self._closing = False

    # -- life ---------------------------------------------------------------------------------

    async def start(self, vapid: Vapid) -> None:
        """Sign with ``vapid``; sweep now (pushes left from before a restart) and every
        ``BIDAK_SWEEP_SECONDS``."""
        self.vapid = vapid
        # The environment's HTTPS_PROXY is followed (trust_env): push services are on the
        # internet, and a server without direct egress reaches them through its proxy.
        self._http = httpx.AsyncClient(timeout=SEND_TIMEOUT, follow_redirects=False)
        self._spawn(self._sweep_forever())

    async def stop(self) -> None:
        self._closing = True
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._http is not None:
            await self._http.aclose()

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        self._busy.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(self._busy.discard)

    async def _sleep_until(self, when: float) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._busy.discard(task)  # waiting for the clock is not being at work
        try:
            await self.clock.sleep_until(when)
        finally:
            if not task.done():
                self._busy.add(task)

    async def settle(self) -> None:
        """Wait until every push this process is working on is done or waits for the clock
        (tests that move a manual clock)."""
        for _ in range(SETTLE_CHECKS):
            if not self._busy:
                return
            await asyncio.sleep(0.005)
        raise TimeoutError("the pushes did not settle")

    # -- subscriptions ----------------------------------------------------------------------------

    async def subscribe(
        self, player_id: str, session_hash: str, subscription: Subscription, language: str
    ) -> None:
        """Keep ``subscription`` for the player in this session (:class:`~.push_rules.Refused`
        when it is not one the site takes)."""
        settings = self.settings
        check_endpoint(subscription.endpoint, settings.push_services, settings.push_allow_http)
        check_keys(subscription.p256dh, subscription.auth)
        new = NewSubscription(
            endpoint=subscription.endpoint,
            endpoint_hash=endpoint_hash(subscription.endpoint),
            p256dh=subscription.p256dh,
            auth=subscription.auth,
            language=language_of(language),
        )
        work = partial(
            push_queries.subscribe,
            new=new,
            player_id=player_id,
            session_hash=session_hash,
            at=self.clock.now(),
            cap=MAX_SUBSCRIPTIONS,
        )
        try:
            await self.db.write_keyed(work)
        except KeyTaken:  # the same browser registered it twice at once: the later one holds
            await self.db.write(work)

    async def unsubscribe(self, player_id: str, endpoint: str) -> bool:
        return await self.db.write(
            partial(
                push_queries.unsubscribe,
                player_id=player_id,
                endpoint_hash=endpoint_hash(endpoint),
            )
        )

    # -- the channel --------------------------------------------------------------------------

    async def told(self, told: Told) -> None:
        """A notification was stored: its pushes are due after the delay (none when the
        player switched its kind off or has no browser to push to)."""
        if not await self.notifications.wants(told.player_id, told.kind, "push"):
            return
        due = told.at + self.settings.push_delay_seconds
        work = partial(
            push_queries.add_due,
            key=told.key,
            player_id=told.player_id,
            kind=told.kind,
            room=told.room,
            due=due,
        )
        if await self.db.write(work) and not self._closing:
            self._spawn(self._at(due))

    async def _at(self, when: float) -> None:
        await self._sleep_until(when)
        await self.sweep()

    async def _sweep_forever(self) -> None:
        while not self._closing:
            try:
                await self.sweep()
            except StorageError as failed:  # the database went away: the next sweep tries again
                log.warning("sweeping pushes due failed: %s", failed)
            except Exception:  # pragma: no cover - a failed sweep must not stop later ones
                log.exception("sweeping pushes due failed")
            await self._sleep_until(self.clock.now() + self.settings.sweep_seconds)

    async def sweep(self) -> int:
        """Send every push due now that no process holds; how many this process took."""
        due = await self.db.read(partial(push_queries.overdue, now=self.clock.now()))
        results = await asyncio.gather(*(self.deliver(due_id) for due_id, _ in due))
        return sum(results)

    async def deliver(self, due_id: int) -> bool:
        """Take the push ``due_id`` and send it, if it is still wanted; False when another
        process holds it or it is not due."""
        now = self.clock.now()
        taken: Taken | None = await self.db.write(
            partial(push_queries.take, due_id=due_id, now=now, lease=LEASE_SECONDS)
        )
        if taken is None:
            return False
        if not await self._wanted(taken):
            self.counts["skipped"] += 1
            await self.db.write(partial(push_queries.done, due_id=taken.id))
            return True
        async with self._sending:
            status = await self._post(taken, now)
        if status is not None and 200 <= status < 300:
            self.counts["sent"] += 1
            await self.db.write(partial(push_queries.done, due_id=taken.id))
        elif status in GONE:
            self.counts["gone"] += 1
            await self.db.write(partial(push_queries.drop, subscription_id=taken.subscription_id))
        else:
            await self._failed(taken, status)
        return True

    async def _wanted(self, taken: Taken) -> bool:
        if not taken.unread or not taken.signed_in:
            return False
        if not await self.notifications.wants(taken.player_id, taken.kind, "push"):
            return False
        return taken.room is None or not await self.presence.at(taken.player_id, taken.room)

    async def _failed(self, taken: Taken, status: int | None) -> None:
        tries = taken.tries + 1
        wait = next_try(tries)
        if wait is None:
            self.counts["given_up"] += 1
            log.warning("push %s given up after %d tries (last: %s)", taken.key, tries, status)
            await self.db.write(partial(push_queries.done, due_id=taken.id))
            return
        self.counts["failed"] += 1
        log.info("push %s failed (%s); trying again in %.0f s", taken.key, status, wait)
        at = self.clock.now() + wait
        await self.db.write(partial(push_queries.again, due_id=taken.id, due=at, tries=tries))
        if not self._closing:
            self._spawn(self._at(at))

    async def _post(self, taken: Taken, now: float) -> int | None:
        """POST the push to its push service: the answer's status (None: no answer)."""
        assert self.vapid is not None and self._http is not None
        info = {"endpoint": taken.endpoint, "keys": {"p256dh": taken.p256dh, "auth": taken.auth}}
        body: bytes = WebPusher(info).encode(
            payload(taken.kind, taken.room, taken.language), "aes128gcm"
        )["body"]
        sent = headers(taken.kind, self.vapid.authorization(taken.endpoint, now))
        try:
            response = await self._http.post(taken.endpoint, content=body, headers=sent)
        except httpx.HTTPError as failed:
            log.info("push %s: no answer from its push service (%r)", taken.key, failed)
            return None
        return response.status_code
