"""``bidak bench server``: scripted friend matches over real WebSockets, next to a bare relay.

What is measured. N friend matches, two clients each, play at a "human pace": a client acts a
random ``think`` time after the table gives it a decision, choosing among the legal plays the
server sent. For every intent the load generator times the first ``events`` message that follows
it on the actor's socket and on the opponent's socket (action-to-broadcast latency). A match that
ends is followed at once by a new one between the same two players.

The reference, measured in the same run, is a bare WebSocket relay on the same stack (uvicorn,
its WebSocket protocol and JSON): as many pairs of connections take turns at the same pace, and
each message is answered on both sockets of its pair with a reply as large as Bidak's broadcasts
were. The gap between the rows is what Bidak itself costs: validation, rules, storage, views.

How the load is made. Every client is an asyncio task on ``websockets`` (uvloop when present).
Up to :data:`IN_PROCESS` matches run in this process; more go to worker processes (one per
1,000 matches, at most one per core), each owning whole matches so both sockets of a match are
timed by one clock. Pacing, not the generator, should set the rate: a client spends far less
than a millisecond per message, so two workers carry 4,000 sockets at human pace. A pair plays
as soon as it is set up (a ramp, which also keeps the 90-second move clocks from running out
while the other pairs are created); only intents sent inside the window, which opens when every
pair is ready and lasts ``duration`` seconds, are counted.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import multiprocessing
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from rich.table import Table

from bidak.server.collector import Collector  # stdlib only: the server is not imported
from bidak.server.openfiles import raise_open_files  # stdlib only, as above

COOKIE = "bidak_session"  # bidak.server.accounts.COOKIE, without importing the server
QUICK_OPTIONS = [
    {"length": length, "move_seconds": 90, "cube": cube}
    for length in (3, 5, 7, 1)
    for cube in (True, False)
]
"""Quick match options, one set per load-generator process."""
IN_PROCESS = 300
"""Up to this many matches, the clients run in the calling process."""
SETTING_UP = 16
"""Pairs of one process being set up at once (more only make SQLite writers wait longer)."""
WAKE = 5.0
"""Longest a client waits for a message before it looks at the clock again."""
GRACE = 10.0
"""Seconds an intent sent before the end of the window may wait for its broadcast."""

Kind = Literal["bidak", "relay"]


@dataclass(frozen=True)
class Think:
    """A client's think time: uniform between ``low`` and ``high`` seconds."""

    low: float
    high: float

    @classmethod
    def parse(cls, text: str) -> Think:
        """``"2-5"`` (seconds, a range) or ``"0.5"`` (always the same)."""
        low, _, high = text.partition("-")
        think = cls(float(low), float(high or low))
        if not 0 <= think.low <= think.high:
            raise ValueError(f"a think time is LOW-HIGH seconds with 0 <= LOW <= HIGH, not {text}")
        return think

    def draw(self, rng: random.Random) -> float:
        return rng.uniform(self.low, self.high)

    def __str__(self) -> str:
        return f"{self.low:g}-{self.high:g} s"


# -- servers in subprocesses --------------------------------------------------------------------


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class ServerProcess:
    """A server on 127.0.0.1 in a subprocess: ``bidak serve`` or the bare relay.

    The crash test kills it with SIGKILL (:meth:`kill`) and starts it again on the same port.
    """

    def __init__(self, command: list[str], port: int, log: Path | None = None) -> None:
        self.command, self.port, self.log = command, port, log
        self.process: subprocess.Popen[bytes] | None = None

    @classmethod
    def bidak(
        cls,
        database_url: str,
        port: int | None = None,
        log: Path | None = None,
        workers: int = 1,
        bus_url: str | None = None,
    ) -> ServerProcess:
        port = port or free_port()
        command = [sys.executable, "-c", "from bidak.cli import main; main()", "serve"]
        command += ["--host", "127.0.0.1", "--port", str(port), "--database-url", database_url]
        if workers > 1:
            command += ["--workers", str(workers)]
        if bus_url:
            command += ["--bus-url", bus_url]
        return cls(command, port, log)

    @classmethod
    def relay(cls, reply_bytes: int, port: int | None = None) -> ServerProcess:
        port = port or free_port()
        command = [sys.executable, "-m", "bidak.bench.server", str(port), str(reply_bytes)]
        return cls(command, port)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, **env: str) -> None:
        """Start the process; ``env`` adds variables (``BIDAK_BOT_DELAY="0"``, ...)."""
        output = self.log.open("ab") if self.log else subprocess.DEVNULL
        try:
            self.process = subprocess.Popen(
                self.command,
                env={**os.environ, **env},
                stdin=subprocess.DEVNULL,
                stdout=output,
                stderr=subprocess.STDOUT,
            )
        finally:
            if self.log:
                output.close()  # type: ignore[union-attr]

    async def ready(self, timeout: float = 60.0) -> None:
        """Wait until ``GET /api/health`` answers 200."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(f"the server exited with status {self.process.returncode}")
            with contextlib.suppress(OSError):
                if await _health(self.port):
                    return
            await asyncio.sleep(0.05)
        raise TimeoutError(f"no server answered on port {self.port} within {timeout:g} s")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, like a power cut of the process."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()

    def cpu_seconds(self) -> float | None:
        """User + system CPU time the process and its worker processes have used (Linux), or
        None."""
        if self.process is None:
            return None
        own = _cpu_ticks(self.process.pid)
        if own is None:
            return None
        children = [
            _cpu_ticks(int(entry.name))
            for entry in Path("/proc").iterdir()
            if entry.name.isdigit() and _parent(int(entry.name)) == self.process.pid
        ]
        ticks = own + sum(child for child in children if child is not None)
        return ticks / os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _cpu_ticks(pid: int) -> int | None:
    fields = _stat(pid)
    return None if fields is None else int(fields[11]) + int(fields[12])


def _parent(pid: int) -> int | None:
    fields = _stat(pid)
    return None if fields is None else int(fields[1])


async def _health(port: int) -> bool:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(b"GET /api/health HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        await writer.drain()
        status = await asyncio.wait_for(reader.readline(), 5)
        return status.split()[1:2] == [b"200"]
    finally:
        writer.close()


def relay_app(reply_bytes: int) -> Callable[..., Awaitable[None]]:
    """The reference: a raw ASGI app that answers each message on both sockets of its pair
    (``/pair/<n>``) with JSON of about ``reply_bytes``; ``/api/health`` for :meth:`ready`."""
    pairs: defaultdict[str, set[Callable[[dict[str, Any]], Awaitable[None]]]] = defaultdict(set)
    pad = "x" * reply_bytes

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
        elif scope["type"] == "http":
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b'{"status":"ok"}'})
        elif scope["type"] == "websocket":
            peers = pairs[scope["path"]]
            await receive()
            await send({"type": "websocket.accept"})
            peers.add(send)
            try:
                while (message := await receive())["type"] == "websocket.receive":
                    intent = json.loads(message["text"])
                    reply = {"type": "events", "version": intent["version"] + 1, "pad": pad}
                    text = json.dumps(reply, separators=(",", ":"))
                    for peer in list(peers):
                        await peer({"type": "websocket.send", "text": text})
            finally:
                peers.discard(send)

    return app


# -- the clients ----------------------------------------------------------------------------------


class NewPlayersRefused(Exception):
    """The server refused new guests from this address (429): a server given with ``--url``
    needs ``BIDAK_GUESTS_PER_MINUTE`` above two players a match."""


@dataclass
class Tally:
    """What the clients of one load run saw."""

    actions: int = 0
    actor_ms: list[float] = field(default_factory=list)
    opponent_ms: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    """Errors by kind: the server's error code, "no broadcast", or an exception's name."""
    finished: int = 0
    messages: int = 0
    message_bytes: int = 0
    cpu_seconds: float = 0.0
    """CPU the load generator's processes used in the window (they share the server's cores)."""
    pairing_ms: list[float] = field(default_factory=list)
    """Quick match: for each client, from pressing Quick match to hearing it was paired."""

    def error(self, kind: str, count: int = 1) -> None:
        if count:
            self.errors[kind] = self.errors.get(kind, 0) + count

    def merge(self, other: Tally) -> None:
        self.actions += other.actions
        self.actor_ms += other.actor_ms
        self.opponent_ms += other.opponent_ms
        for kind, count in other.errors.items():
            self.error(kind, count)
        self.finished += other.finished
        self.messages += other.messages
        self.message_bytes += other.message_bytes
        self.cpu_seconds += other.cpu_seconds
        self.pairing_ms += other.pairing_ms


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


@dataclass(frozen=True)
class Load:
    """One measured run: ``matches`` pairs of clients for ``duration`` seconds."""

    kind: Kind
    url: str
    matches: int
    duration: float
    think: Think
    seed: int = 2026
    deflate: bool = True
    quick: bool = False
    """Bidak only: the clients first press Quick match all at once, and play whom they get."""


def choose(table: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A scripted player's answer from the table alone: take, roll, or a random legal play;
    a double now and then, so the cube is used."""
    allowed = set(table["allowed"])
    if "take" in allowed:
        return {"type": "drop" if rng.random() < 0.2 else "take"}
    if "accept_resign" in allowed:
        return {"type": "accept_resign"}
    if "double" in allowed and rng.random() < 0.05:
        return {"type": "double"}
    if "roll" in allowed:
        return {"type": "roll"}
    if "play" in allowed and table["legal_plays"]:
        play = rng.choice(table["legal_plays"])
        return {"type": "play", "steps": [step[:2] for step in play["steps"]]}
    return None


def my_decision(table: dict[str, Any] | None, seat: int) -> bool:
    """Whether the table waits for ``seat`` (answers to a double or resignation included)."""
    if table is None or not table["allowed"]:
        return False
    allowed = set(table["allowed"])
    if allowed & {"take", "drop", "accept_resign", "reject_resign"}:
        return True
    return table["turn"] == seat and bool(allowed & {"roll", "play", "double"})


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
        # Origin: the server takes changes only from its own pages (bidak.server.security).
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
            logging.getLogger("bidak.server.collector").setLevel(logging.ERROR)  # not news here
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
                        seat.socket = await self._connect("/ws", seat.token)
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

        async def press(seat: _Seat) -> None:
            started = time.perf_counter()
            cookie = {"Cookie": f"{COOKIE}={seat.token}"}
            (await self.http.post("/api/quick", json=options, headers=cookie)).raise_for_status()
            while True:
                message = json.loads(await asyncio.wait_for(seat.socket.recv(), 120))
                if message.get("type") == "quick" and message.get("state") == "paired":
                    break
            self.tally.pairing_ms.append((time.perf_counter() - started) * 1000)
            seat.room = message["room"]
            info = (await self.http.get(f"/api/rooms/{seat.room}", headers=cookie)).json()
            seat.seat = info["seat"]

        await asyncio.gather(*(press(seat) for seat in seats))
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

    async def _guest(self) -> str:
        answer = await self.http.get("/api/me", headers={"Cookie": "new=1"})
        if answer.status_code == 429:
            raise NewPlayersRefused(answer.text)
        answer.raise_for_status()
        token: str = answer.cookies[COOKIE]
        return token

    async def _connect(self, path: str, token: str | None) -> Any:
        from websockets.asyncio.client import connect
        from websockets.typing import Origin

        return await connect(
            self.ws + path,
            additional_headers={"Cookie": f"{COOKIE}={token}"} if token else None,
            origin=Origin(self.load.url),
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


def _run_clients(load: Load, first: int, count: int, started: Callable[[], None]) -> Tally:
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


def _worker(load: Load, first: int, count: int, ready: Any, go: Any, results: Any) -> None:
    raise_open_files()

    def started() -> None:
        ready.put(first)
        go.wait()

    results.put(_run_clients(load, first, count, started))


# -- one measured run and the table -------------------------------------------------------------


@dataclass
class Result:
    name: str
    load: Load
    tally: Tally
    server_cpu: float | None
    """Share of one core the server process used during the window (None: not ours)."""

    @property
    def mean_message_bytes(self) -> int:
        return self.tally.message_bytes // max(1, self.tally.messages)


def default_workers(matches: int) -> int:
    """0 (this process) for small runs, else one worker process per 1,000 matches, per core."""
    if matches <= IN_PROCESS:
        return 0
    return max(1, min(os.cpu_count() or 1, math.ceil(matches / 1000)))


def measure(name: str, load: Load, workers: int, server: ServerProcess | None = None) -> Result:
    """Set every pair up, then open the window for all at once and play it to its end."""
    import threading

    cpu: list[tuple[float | None, float]] = []  # (server CPU seconds, time) at open and close

    def sample() -> None:
        cpu.append((server.cpu_seconds() if server else None, time.monotonic()))

    def started() -> None:
        sample()
        threading.Timer(load.duration, sample).start()

    if workers <= 0:
        tally = _run_clients(load, 0, load.matches, started)
    else:
        context = multiprocessing.get_context("spawn")
        ready, results, go = context.Queue(), context.Queue(), context.Event()
        shares = [load.matches // workers + (n < load.matches % workers) for n in range(workers)]
        starts = [sum(shares[:n]) for n in range(workers)]
        processes = [
            context.Process(target=_worker, args=(load, start, share, ready, go, results))
            for start, share in zip(starts, shares, strict=True)
        ]
        for process in processes:
            process.start()
        for _ in processes:
            _from_workers(ready, processes)
        started()
        go.set()
        tally = Tally()
        for _ in processes:
            tally.merge(_from_workers(results, processes))
        for process in processes:
            process.join()
    if len(cpu) < 2:  # every pair ended before the window did
        sample()
    (cpu_before, opened), (cpu_after, closed) = cpu[:2]
    share = None
    if cpu_after is not None and cpu_before is not None:
        share = (cpu_after - cpu_before) / max(1e-9, closed - opened)
    return Result(name, load, tally, share)


def _from_workers(queue: Any, processes: list[Any]) -> Any:
    """The next item a worker puts on ``queue``; fails if a worker died instead."""
    import queue as queues

    while True:
        try:
            return queue.get(timeout=1.0)
        except queues.Empty:
            dead = [p.exitcode for p in processes if p.exitcode not in (None, 0)]
            if dead:
                raise RuntimeError(f"a load-generator process failed (exit {dead[0]})") from None


def quantile(values: list[float], q: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _pairing(result: Result, q: float) -> str:
    if not result.tally.pairing_ms:
        return "-"
    return f"{quantile(result.tally.pairing_ms, q):.1f}"


def results_table(results: list[Result]) -> Table:
    """One column per server, so the reference stands next to Bidak."""
    table = Table("", *(result.name for result in results), title="bidak bench server")
    rows: list[tuple[str, Callable[[Result], str]]] = [
        ("matches (clients)", lambda r: f"{r.load.matches} ({2 * r.load.matches})"),
        ("think time", lambda r: str(r.load.think)),
        ("actions", lambda r: str(r.tally.actions)),
        ("actions/s", lambda r: f"{r.tally.actions / r.load.duration:.1f}"),
        ("p50 ms, actor", lambda r: f"{quantile(r.tally.actor_ms, 0.50):.1f}"),
        ("p99 ms, actor", lambda r: f"{quantile(r.tally.actor_ms, 0.99):.1f}"),
        ("p50 ms, opponent", lambda r: f"{quantile(r.tally.opponent_ms, 0.50):.1f}"),
        ("p99 ms, opponent", lambda r: f"{quantile(r.tally.opponent_ms, 0.99):.1f}"),
        ("errors", lambda r: str(sum(r.tally.errors.values()))),
        ("pairing p50 ms", lambda r: _pairing(r, 0.50)),
        ("pairing p99 ms", lambda r: _pairing(r, 0.99)),
        ("matches finished", lambda r: str(r.tally.finished) if r.load.kind == "bidak" else "-"),
        ("mean message bytes", lambda r: str(r.mean_message_bytes)),
        (
            "server CPU (1 core = 100%)",
            lambda r: "-" if r.server_cpu is None else f"{r.server_cpu:.0%}",
        ),
        ("load generator CPU", lambda r: f"{r.tally.cpu_seconds / r.load.duration:.0%}"),
    ]
    for label, cell in rows:
        table.add_row(label, *(cell(result) for result in results))
    return table


def run(
    matches: int,
    duration: float,
    think: Think,
    url: str | None = None,
    workers: int | None = None,
    deflate: bool = True,
    folder: Path | None = None,
    progress: Callable[[str], None] = lambda text: None,
    server_workers: int = 1,
    bus_url: str | None = None,
    quick: bool = False,
) -> list[Result]:
    """Bidak (started here on a fresh SQLite file in ``folder``, or the one at ``url``), then the
    bare relay with the same number of connections, pace and reply size."""
    import tempfile

    raise_open_files()
    workers = default_workers(matches) if workers is None else workers
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="bidak-bench-") as scratch:
        where = folder or Path(scratch)
        server = None
        if url is None:
            database = f"sqlite:///{where / 'bench.sqlite3'}"
            server = ServerProcess.bidak(
                database, log=where / "server.log", workers=server_workers, bus_url=bus_url
            )
            # Every player of the bench comes from this one address.
            server.start(BIDAK_BOT_DELAY="0", BIDAK_GUESTS_PER_MINUTE="1000000000")
        try:
            if server is not None:
                asyncio.run(server.ready())
                url = server.url
            assert url is not None
            progress(f"bidak at {url}: {matches} matches, think {think}, {workers} workers")
            load = Load(
                "bidak", url.rstrip("/"), matches, duration, think, deflate=deflate, quick=quick
            )
            results.append(measure("bidak", load, workers, server))
        finally:
            if server is not None:
                server.stop()
        relay = ServerProcess.relay(results[0].mean_message_bytes)
        relay.start()
        try:
            asyncio.run(relay.ready())
            progress(f"bare relay at {relay.url}, replies of {results[0].mean_message_bytes} B")
            load = Load("relay", relay.url, matches, duration, think, deflate=deflate)
            results.append(measure("bare relay", load, workers, relay))
        finally:
            relay.stop()
    return results


def _serve_relay(port: int, reply_bytes: int) -> None:
    import uvicorn

    uvicorn.run(relay_app(reply_bytes), host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":  # the reference server: python -m bidak.bench.server PORT BYTES
    _serve_relay(int(sys.argv[1]), int(sys.argv[2]))
