"""At most so many open WebSockets per browser session: one more closes the session's oldest.

A tab that opens sockets in a loop (a bug, or on purpose) would otherwise hold thousands of
them, each an open file and a subscription. Each session's sockets are listed in the order they
opened; past ``BIDAK_SOCKETS_PER_SESSION`` the oldest are taken off the list and closed with
:data:`REPLACED` (the browser client does not reconnect after that code).

With several processes the list is in Redis (one Lua script adds and trims it atomically, and the
key expires a day after the session last opened a socket), and a socket is closed by the process
that holds it: each process listens on a bus channel of its own, named in the list's entries.
A process that died leaves entries behind; they are the oldest, so they are the first to go.

A socket also ends with its session: signing out, signing every browser out, ending a session
from another browser, deleting the account, or a session replaced at sign-in. The request that
ended it publishes the ended sessions (or the player, for all of theirs) on one channel of the
site that every process listens on, and each process closes its own sockets of them
(:data:`SIGNED_OUT`, or :data:`RENEWED` for a session the same browser replaced at sign-in).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from bidak.server.shared.bus import REDIS_SCHEMES, Bus, Subscription

log = logging.getLogger(__name__)

REPLACED = 4001
"""The close code of a socket closed because its session opened too many."""
REPLACED_REASON = "replaced: this session opened too many connections (this was the oldest)"
RENEWED = 4002
"""The close code of a socket whose session this browser replaced by a new one at sign-in:
the browser reconnects with its new cookie (a copy of the old one is a guest's no more)."""
RENEWED_REASON = "renewed: this browser signed in with a new session; connect again"
SIGNED_OUT = 4003
"""The close code of a socket whose session ended (signed out here or everywhere, ended from
another browser, account deleted): the browser client says it was signed out and stays closed."""
SIGNED_OUT_REASON = "signed out: this session has ended"
REASONS = {REPLACED: REPLACED_REASON, RENEWED: RENEWED_REASON, SIGNED_OUT: SIGNED_OUT_REASON}
LIST_SECONDS = 24 * 3600
"""How long a session's list of sockets is kept after its last new socket (Redis)."""
RELISTEN_SECONDS = 1.0
"""How soon a process listens again after its bus was lost."""


class Registry(Protocol):
    async def opened(self, session: str, entry: str, cap: int) -> list[str]:
        """Note ``entry`` as the session's newest socket; the entries beyond ``cap`` (the
        oldest), which the caller closes."""
        ...

    async def closed(self, session: str, entry: str) -> None: ...

    async def close(self) -> None: ...


class MemoryRegistry:
    """One process: the lists in its memory."""

    def __init__(self) -> None:
        self._sessions: dict[str, OrderedDict[str, None]] = {}

    async def opened(self, session: str, entry: str, cap: int) -> list[str]:
        entries = self._sessions.setdefault(session, OrderedDict())
        entries[entry] = None
        evicted = []
        while len(entries) > cap:
            evicted.append(entries.popitem(last=False)[0])
        return evicted

    async def closed(self, session: str, entry: str) -> None:
        entries = self._sessions.get(session)
        if entries is not None:
            entries.pop(entry, None)
            if not entries:
                del self._sessions[session]

    async def close(self) -> None:
        self._sessions.clear()


# KEYS[1]: the session's list, oldest first. ARGV: entry, cap, seconds kept.
OPENED = """
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[3]))
local over = redis.call('LLEN', KEYS[1]) - tonumber(ARGV[2])
if over <= 0 then
  return {}
end
local evicted = redis.call('LRANGE', KEYS[1], 0, over - 1)
redis.call('LTRIM', KEYS[1], over, -1)
return evicted
"""


class RedisRegistry:
    """Every process: the lists in Redis. Keys: ``{prefix}sockets:{session}``."""

    def __init__(self, url: str, prefix: str, name: str | None = None) -> None:
        from bidak.server.shared.limiter import redis_client

        self._redis: Any = redis_client(url, name, decode=True)
        self._opened: Any = self._redis.register_script(OPENED)
        self.prefix = prefix

    def key(self, session: str) -> str:
        return f"{self.prefix}sockets:{session}"

    async def opened(self, session: str, entry: str, cap: int) -> list[str]:
        try:
            evicted = await self._opened(keys=[self.key(session)], args=[entry, cap, LIST_SECONDS])
        except Exception as failed:  # the socket stays open; the cap is not counted meanwhile
            log.warning("open sockets are not counted: Redis did not answer (%s)", failed)
            return []
        return [str(item) for item in evicted]

    async def closed(self, session: str, entry: str) -> None:
        with contextlib.suppress(Exception):
            await self._redis.lrem(self.key(session), 1, entry)

    async def close(self) -> None:
        await self._redis.aclose()


def registry_for(bus_url: str, prefix: str, name: str | None = None) -> Registry:
    if bus_url.startswith(REDIS_SCHEMES):
        return RedisRegistry(bus_url, prefix, name)
    return MemoryRegistry()


Closer = Callable[[int, str], Awaitable[None]]
"""Closes one socket with a close code and its reason."""


class SocketCap:
    """This process's open sockets, by entry, and the cap on each session's.

    An entry is ``{process}/{number}``: the process's random id says whose socket it is.
    """

    def __init__(self, registry: Registry, bus: Bus, cap: int, prefix: str) -> None:
        self.registry, self.bus, self.cap = registry, bus, cap
        self.process = secrets.token_hex(8)
        self._channel = f"{prefix}process:{self.process}"
        self._ended_channel = f"{prefix}sessions-ended"
        self._numbers = itertools.count(1)
        self._local: dict[str, Closer] = {}
        self._owners: dict[str, tuple[str, str | None]] = {}
        """Each local socket's session and player (None: no session)."""
        self._subscriptions: dict[str, Subscription] = {}
        self._listeners: list[asyncio.Task[None]] = []

    def _owner_channel(self, entry: str) -> str:
        return self._channel.rsplit(":", 1)[0] + ":" + entry.split("/", 1)[0]

    async def start(self) -> None:
        for channel in (self._channel, self._ended_channel):
            self._subscriptions[channel] = await self.bus.subscribe(channel)
            self._listeners.append(asyncio.create_task(self._listen(channel)))

    async def _listen(self, channel: str) -> None:
        """Close the sockets other processes (or this one) say to close; when the bus is lost,
        listen again once it is back (what was said meanwhile is lost: those sockets stay open
        until their next message finds the session gone, see :mod:`bidak.server.play.ws`)."""
        while True:
            try:
                async for message in self._subscriptions[channel]:
                    await self._heard(message)
                return  # the bus was closed: the process is stopping
            except asyncio.CancelledError:
                raise
            except Exception as lost:
                log.warning("not listening for sockets to close (%s); trying again", lost)
            while True:
                await asyncio.sleep(RELISTEN_SECONDS)
                try:
                    self._subscriptions[channel] = await self.bus.subscribe(channel)
                    break
                except Exception:
                    continue

    async def _heard(self, message: dict[str, Any]) -> None:
        kind = message.get("kind")
        if kind == "close":
            await self._close_local(str(message.get("entry")))
        elif kind == "ended":
            sessions = set(message.get("sessions") or ())
            player = message.get("player")
            code = int(message.get("code") or SIGNED_OUT)
            ending = [
                entry
                for entry, (session, owner) in list(self._owners.items())
                if session in sessions or (player is not None and owner == player)
            ]
            for entry in ending:
                await self._close_local(entry, code)

    async def end(
        self, sessions: list[str] | None = None, player: str | None = None, code: int = SIGNED_OUT
    ) -> None:
        """Close every socket, in every process, of the ``sessions`` (token hashes) and, when
        ``player`` is given, of every session of that player. Called after the sessions were
        ended in the store, so a socket opened meanwhile finds its session gone."""
        note = {"kind": "ended", "sessions": sessions or [], "player": player, "code": code}
        try:
            await self.bus.publish(self._ended_channel, note)
        except Exception as failed:  # this process's own sockets still go
            log.warning("could not tell the other processes a session ended (%s)", failed)
            await self._heard(note)

    async def opened(self, session: str, close: Closer, player: str | None = None) -> str:
        """Note a new socket of ``session`` (of ``player``; ``close`` closes it with a code and
        a reason); closes the session's oldest ones past the cap. Returns the socket's entry."""
        entry = f"{self.process}/{next(self._numbers)}"
        self._local[entry] = close
        self._owners[entry] = (session, player)
        for old in await self.registry.opened(session, entry, self.cap):
            if old.startswith(self.process + "/"):
                await self._close_local(old)
            else:
                command = {"kind": "close", "entry": old}
                with contextlib.suppress(Exception):
                    await self.bus.publish(self._owner_channel(old), command)
        return entry

    async def closed(self, session: str, entry: str) -> None:
        """Forget a socket that closed (taken off the session's list first, then off this
        process's: once :func:`len` counts it no more, no list holds it)."""
        if entry in self._local:
            await self.registry.closed(session, entry)
            self._local.pop(entry, None)
        self._owners.pop(entry, None)

    async def _close_local(self, entry: str, code: int = REPLACED) -> None:
        close = self._local.pop(entry, None)
        if close is not None:
            with contextlib.suppress(Exception):
                await close(code, REASONS.get(code, SIGNED_OUT_REASON))

    def __len__(self) -> int:
        return len(self._local)

    async def stop(self) -> None:
        for listener in self._listeners:
            listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await listener
        for subscription in self._subscriptions.values():
            await subscription.close()
        await self.registry.close()
