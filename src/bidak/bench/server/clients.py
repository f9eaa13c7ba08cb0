"""The scripted clients of ``bidak bench server``: each pair of clients sets up a friend match
(or presses Quick match), then plays it at the load's think time, choosing from the table alone,
and times every intent until its broadcast arrives on both sockets; the relay's pairs take turns
at the same pace. One :class:`_Clients` is the whole load of one process: the calling one, or a
worker process (:func:`worker`)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bidak.bench.server.load import Load, Tally
from bidak.bench.server.scripted import choose, my_decision
from bidak.server.shared.collector import Collector  # stdlib only: the server is not imported
from bidak.server.shared.openfiles import raise_open_files  # stdlib only, as above

COOKIE = "bidak_session"  # bidak.server.accounts.guests.COOKIE, without importing the server
QUICK_OPTIONS = [
    {"length": length, "move_seconds": 90, "cube": cube}
    for length in (3, 5, 7, 1)
    for cube in (True, False)
]
"""Quick match options, one set per load-generator process."""
SETTING_UP = 16
"""Pairs of one process being set up at once (more only make SQLite writers wait longer)."""
WAKE = 5.0
"""Longest a client waits for a message before it looks at the clock again."""
GRACE = 10.0
"""Seconds an intent sent before the end of the window may wait for its broadcast."""


class NewPlayersRefused(Exception):
    """The server refused new guests from this address (429): a server given with ``--url``
    needs ``BIDAK_GUESTS_PER_MINUTE`` above two players a match."""


@dataclass
class _Turn:
    """An intent in flight: sent on table ``version`` by seat ``actor``."""

    version: int
    actor: int
    sent: float
    waiting: set[int] = field(default_factory=lambda: {0, 1})
    counted: bool = False
    """Sent inside the measured window."""


@dataclass
class _Seat:
    token: str
    seat: int
    socket: Any = None
    room: str = ""
    version: int = 0
    table: dict[str, Any] | None = None


class _Clients:
    """The clients of one process: setup, then play until the window closes."""

    def __init__(self, load: Load, first: int, count: int) -> None:
        self.load, self.first, self.count = load, first, count
        self.tally = Tally()
        self.ws = load.url.replace("http", "ws", 1)
        self.start_at = self.stop_at = math.inf  # the window, once every pair is set up
        self.set_up = 0
        self.http: Any = None

    async def run(self, started: Callable[[], Awaitable[None]]) -> Tally:
        import httpx

        limits = httpx.Limits(max_connections=64)
        # Origin: the server takes changes only from its own pages (bidak.server.shared.security).
        async with httpx.AsyncClient(
            base_url=self.load.url,
            trust_env=False,
            limits=limits,
            timeout=120,
            headers={"Origin": self.load.url},
        ) as self.http:
            gate = asyncio.Semaphore(SETTING_UP)
            if self.load.quick and self.load.kind == "bidak":
                groups = await self._quick_pairs(gate)
                self.set_up = self.count
                pairs = [
                    asyncio.create_task(self._play_group(seats, self.first + n))
                    for n, seats in enumerate(groups)
                ]
            else:
                pairs = [
                    asyncio.create_task(self._pair(self.first + n, gate)) for n in range(self.count)
                ]
            while self.set_up < self.count:
                await asyncio.sleep(0.05)
            # The clients' own collector must not pause them in the window: a full collection
            # of their thousands of tables and sockets would be counted as the server's latency.
            collector = Collector(every=1.0)
            logging.getLogger("bidak.server.shared.collector").setLevel(
                logging.ERROR
            )  # not news here
            collector.start()
            try:
                await started()
                self.start_at = time.perf_counter()
                self.stop_at = self.start_at + self.load.duration
                await asyncio.gather(*pairs, self._own_cpu())
            finally:
                await collector.stop()
        return self.tally

    async def _own_cpu(self) -> None:
        """This process's CPU time in the window."""
        before = time.process_time()
        await asyncio.sleep(max(0.0, self.stop_at - time.perf_counter()))
        self.tally.cpu_seconds += time.process_time() - before

    def _in_window(self, when: float) -> bool:
        return self.start_at <= when < self.stop_at

    async def _pair(self, index: int, gate: asyncio.Semaphore) -> None:
        """Set one pair up, then play at once: pairs ready early warm the server up (and keep
        their move clocks from running out) until the window opens for all."""
        rng = random.Random(f"{self.load.seed}:{index}")
        seats: list[_Seat] = []
        sockets: list[Any] = []
        try:
            async with gate:
                if self.load.kind == "bidak":
                    seats = [_Seat(await self._guest(), 0), _Seat(await self._guest(), 1)]
                    for seat in seats:
                        where = self.load.socket_url(index, seat.seat)
                        seat.socket = await self._connect("/ws", seat.token, where)
                        sockets.append(seat.socket)
                    await self._new_match(seats)
                else:
                    for _ in range(2):
                        sockets.append(await self._connect(f"/pair/{index}", None))
        except Exception as failed:
            self.tally.error(f"setup: {type(failed).__name__}")
            sockets.clear()
        finally:
            self.set_up += 1
        try:
            if len(sockets) < 2:
                return
            if self.load.kind == "bidak":
                await self._matches(seats, rng)
            else:
                await self._relay(sockets, rng)
        except Exception as failed:
            self.tally.error(type(failed).__name__)
        finally:
            for open_socket in sockets:
                with contextlib.suppress(Exception):
                    await open_socket.close()

    async def _quick_pairs(self, gate: asyncio.Semaphore) -> list[list[_Seat]]:
        """Every client of this process presses Quick match at once (the same options; each
        load-generator process its own, so no pair spans two processes); the pairs as found."""
        options = QUICK_OPTIONS[(self.first // max(1, self.count)) % len(QUICK_OPTIONS)]

        async def ready() -> _Seat:
            async with gate:
                seat = _Seat(await self._guest(), -1)
                seat.socket = await self._connect("/ws", seat.token)
                return seat

        seats = await asyncio.gather(*(ready() for _ in range(2 * self.count)))
        body = json.dumps(options)

        async def press(seat: _Seat) -> None:
            """A press as a player sees it: from the click to the table's "paired" over the
            socket (which may come before the answer to the press)."""
            started = time.perf_counter()
            pressed = asyncio.create_task(self._post(seat.token, "/api/quick", body))
            while True:
                message = json.loads(await asyncio.wait_for(seat.socket.recv(), 120))
                if message.get("type") == "quick" and message.get("state") == "paired":
                    break
            self.tally.pairing_ms.append((time.perf_counter() - started) * 1000)
            await pressed
            seat.room = message["room"]

        await asyncio.gather(*(press(seat) for seat in seats))
        for seat in seats:
            cookie = {"Cookie": f"{COOKIE}={seat.token}"}
            info = (await self.http.get(f"/api/rooms/{seat.room}", headers=cookie)).json()
            seat.seat = info["seat"]
        rooms: dict[str, list[_Seat]] = {}
        for seat in seats:
            rooms.setdefault(seat.room, []).append(seat)
        groups = [sorted(two, key=lambda s: s.seat) for two in rooms.values()]
        for two in groups:
            for seat in two:
                seat.table, seat.version = None, 0
                await seat.socket.send(json.dumps({"type": "join", "room": seat.room}))
                while seat.table is None:
                    self._read(seat, await asyncio.wait_for(seat.socket.recv(), 120), [])
        return groups

    async def _play_group(self, seats: list[_Seat], index: int) -> None:
        rng = random.Random(f"{self.load.seed}:{index}")
        try:
            await self._matches(seats, rng)
        except Exception as failed:
            self.tally.error(type(failed).__name__)
        finally:
            for seat in seats:
                with contextlib.suppress(Exception):
                    await seat.socket.close()

    async def _post(self, token: str, path: str, body: str) -> None:
        """POST ``body`` (JSON) on a connection of its own, as each player's browser has: a
        bare HTTP/1.1 request, because with 200 at once httpx's own work in this process (which
        shares the server's cores) was most of what the bench measured as pairing."""
        host, port = self.load.url.split("://", 1)[1].rsplit(":", 1)
        reader, writer = await asyncio.open_connection(host, int(port))
        try:
            data = body.encode()
            head = (
                f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nOrigin: {self.load.url}\r\n"
                f"Cookie: {COOKIE}={token}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n"
            )
            writer.write(head.encode() + data)
            status = (await asyncio.wait_for(reader.readline(), 120)).split()
            await asyncio.wait_for(reader.read(), 120)
        finally:
            writer.close()
        if len(status) < 2 or not status[1].startswith(b"2"):
            raise RuntimeError(f"POST {path}: {status!r}")

    async def _guest(self) -> str:
        answer = await self.http.get("/api/me", headers={"Cookie": "new=1"})
        if answer.status_code == 429:
            raise NewPlayersRefused(answer.text)
        answer.raise_for_status()
        token: str = answer.cookies[COOKIE]
        return token

    async def _connect(self, path: str, token: str | None, where: str | None = None) -> Any:
        """A WebSocket to ``path`` of the load's server, or of the process at ``where``."""
        from websockets.asyncio.client import connect
        from websockets.typing import Origin

        ws = self.ws if where is None else where.replace("http", "ws", 1)
        return await connect(
            ws + path,
            additional_headers={"Cookie": f"{COOKIE}={token}"} if token else None,
            # Each process is its own site here (as all would be one behind a load balancer).
            origin=Origin(where or self.load.url),
            compression="deflate" if self.load.deflate else None,
            proxy=None,
            ping_interval=None,
            open_timeout=120,
        )

    async def _new_match(self, seats: list[_Seat]) -> None:
        host, guest = ({"Cookie": f"{COOKIE}={seat.token}"} for seat in seats)
        options = {"kind": "friend", "length": 3, "move_seconds": 90}
        created = await self.http.post("/api/rooms", json=options, headers=host)
        created.raise_for_status()
        code = created.json()["code"]
        (await self.http.post(f"/api/rooms/{code}/join", headers=guest)).raise_for_status()
        for seat in seats:
            seat.room, seat.table, seat.version = code, None, 0
            await seat.socket.send(json.dumps({"type": "join", "room": code}))
            while seat.table is None:
                self._read(seat, await asyncio.wait_for(seat.socket.recv(), 120), [])

    async def _matches(self, seats: list[_Seat], rng: random.Random) -> None:
        while time.perf_counter() < self.stop_at:
            turns: list[_Turn] = []
            over = await asyncio.gather(*(self._play(seat, turns, rng) for seat in seats))
            if not all(over):
                return
            self.tally.finished += self._in_window(time.perf_counter())
            if time.perf_counter() < self.stop_at:
                await self._new_match(seats)

    async def _play(self, me: _Seat, turns: list[_Turn], rng: random.Random) -> bool:
        """Play one seat until the match is over (True) or the window has closed (False)."""
        acted_on = -1
        while True:
            now = time.perf_counter()
            if me.table is not None and me.table["phase"] == "match_over":
                return True
            due = any(me.seat in turn.waiting for turn in turns)
            if now >= self.stop_at + GRACE or (now >= self.stop_at and not due):
                self.tally.error("no broadcast", due)
                return False
            if my_decision(me.table, me.seat) and acted_on != me.version:
                acted_on = me.version
                await asyncio.sleep(self.load.think.draw(rng))
                action = choose(me.table or {}, rng)
                if action is not None and time.perf_counter() < self.stop_at:
                    turn = _Turn(me.version, me.seat, time.perf_counter())
                    turn.counted = self._in_window(turn.sent)
                    turns.append(turn)
                    self.tally.actions += turn.counted
                    intent = {"type": "intent", "action": action, "version": me.version}
                    await me.socket.send(json.dumps(intent))
            # Wake for the next message, or when the window (or its grace period) ends: not
            # on a short poll, which with 4,000 clients cost the generator more CPU than the
            # messages themselves, on the cores the server shares.
            end = self.stop_at if now < self.stop_at else self.stop_at + GRACE
            wait = min(WAKE, max(0.01, end - now))
            with contextlib.suppress(TimeoutError):
                if not self._read(me, await asyncio.wait_for(me.socket.recv(), wait), turns):
                    acted_on = -1  # refused: decide again on the same table

    def _read(self, me: _Seat, text: str, turns: list[_Turn]) -> bool:
        """Take in one server message; False when it refused this client's intent."""
        arrived = time.perf_counter()
        message = json.loads(text)
        self.tally.messages += 1
        self.tally.message_bytes += len(text)
        if message["type"] == "error":
            self.tally.error(message["code"])
            # Refused: nothing will be broadcast for it; the next table decides again.
            turns[:] = [turn for turn in turns if turn.actor != me.seat]
            return False
        if message.get("room") != me.room or message["type"] not in ("snapshot", "events"):
            return True
        if message["version"] >= me.version and message["table"] is not None:
            me.version, me.table = message["version"], message["table"]
        if message["type"] != "events":
            return True
        first = message["events"][0]["version"]
        for turn in turns:
            if me.seat in turn.waiting and first > turn.version:
                if turn.counted:
                    spent = (arrived - turn.sent) * 1000
                    mine = turn.actor == me.seat
                    (self.tally.actor_ms if mine else self.tally.opponent_ms).append(spent)
                turn.waiting.discard(me.seat)
        turns[:] = [turn for turn in turns if turn.waiting]
        return True

    async def _relay(self, sockets: list[Any], rng: random.Random) -> None:
        """A pair of connections taking turns, each message answered on both sockets."""
        actor, version = 0, 0
        while True:
            await asyncio.sleep(self.load.think.draw(rng))
            if time.perf_counter() >= self.stop_at:
                return
            sent = time.perf_counter()
            counted = self._in_window(sent)
            self.tally.actions += counted
            await sockets[actor].send(json.dumps({"type": "intent", "version": version}))
            arrivals = await asyncio.wait_for(
                asyncio.gather(*(self._reply(s, version + 1) for s in sockets)), GRACE
            )
            if counted:
                self.tally.actor_ms.append((arrivals[actor] - sent) * 1000)
                self.tally.opponent_ms.append((arrivals[1 - actor] - sent) * 1000)
            actor, version = 1 - actor, version + 1

    async def _reply(self, open_socket: Any, version: int) -> float:
        while True:
            text = await open_socket.recv()
            arrived = time.perf_counter()
            self.tally.messages += 1
            self.tally.message_bytes += len(text)
            if json.loads(text)["version"] == version:
                return arrived


def run_clients(load: Load, first: int, count: int, started: Callable[[], None]) -> Tally:
    """Clients ``first`` to ``first + count - 1`` of ``load``, on uvloop when present; ``started``
    is called (in a thread) when every pair is set up, and returns when the window opens."""

    async def announce() -> None:
        await asyncio.to_thread(started)

    clients = _Clients(load, first, count)
    try:
        import uvloop

        loop_factory: Callable[[], asyncio.AbstractEventLoop] | None = uvloop.new_event_loop
    except ImportError:  # pragma: no cover - uvicorn[standard] brings uvloop
        loop_factory = None
    with asyncio.Runner(loop_factory=loop_factory) as runner:
        return runner.run(clients.run(announce))


def worker(load: Load, first: int, count: int, ready: Any, go: Any, results: Any) -> None:
    """A load-generator process: say it is ready, wait for the go, run, put its tally."""
    raise_open_files()

    def started() -> None:
        ready.put(first)
        go.wait()

    results.put(run_clients(load, first, count, started))
