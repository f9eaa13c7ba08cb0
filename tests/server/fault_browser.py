"""The scripted browsers of the fault runs (:mod:`tests.server.faults`): each holds a session
and a WebSocket it opens again, on the other process if its own is gone, and records every
event it is shown; and the run's :class:`Plan`."""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets
from websockets.asyncio.client import connect
from websockets.typing import Origin

from tests.server.scripted import Script

WAIT = 30.0
"""Seconds a browser waits for a message before it counts as stuck."""


@dataclass
class Plan:
    cross: int = 4
    """Friend matches whose two players are on different processes."""
    same: int = 1
    """Friend matches whose two players are on the same process."""
    practice: int = 1
    """Matches against the bot."""
    length: int = 5
    think: tuple[float, float] = (0.03, 0.1)
    """Seconds a player takes for a decision (drawn between the two)."""
    stalls: int = 2
    """Players (one per cross match) who let their clock run out once."""
    clock_scale: float = 0.1
    """Deadlines are this fraction of the room's (30 s a move: 3 s)."""
    outages: list[float] = field(default_factory=lambda: [2.0, 2.0])
    """Seconds Redis is away, each time."""
    bursts: int = 2
    burst_kills: int = 5
    """Bursts of killed database connections, and the kills of each (0.1 s apart)."""
    process_kills: int = 1
    gap: float = 1.5
    """Seconds between two faults."""
    seed: int = 29
    limit: float = 300.0
    """Seconds the matches may take in all."""


class Kills:
    """How many times each server address was killed (a socket of a killed process may drop
    without a close frame)."""

    def __init__(self) -> None:
        self.count: dict[str, int] = {}


class Browser:
    """One browser: a session cookie and a WebSocket opened again (on the other process if its
    own is gone) whenever it closes; records every event it is shown."""

    def __init__(
        self, bases: list[str], script: Script, rng: random.Random, plan: Plan, kills: Kills
    ) -> None:
        self.bases, self.script, self.rng, self.plan, self.kills = bases, script, rng, plan, kills
        self.cookie = ""
        self.room = ""
        self.match = ""
        self.seat: int | None = None
        self.table: dict[str, Any] | None = None
        self.version = 0
        self.shown: list[tuple[int, dict[str, Any]]] = []
        self.shown_at: list[float] = []
        self.errors: list[str] = []
        self.closes: list[tuple[str, int | None, bool, float]] = []
        """Each close: the address, its code (None: no close frame), whether a kill explains it,
        when (``time.time()``)."""
        self.planned = False
        self.snapshots: list[float] = []
        """When each snapshot arrived (``time.time()``)."""
        self.socket: Any = None
        self.home = False
        """Set to go back to the first address (its process was killed, and is back)."""
        self.deadline: dict[str, Any] | None = None
        self.stall_at: int | None = None
        """The decision at which this player lets the clock run out (None: never)."""
        self.decisions = 0
        self.stalling: float | None = None
        self.stalls: list[float] = []
        """Seconds from each stalled deadline to the timeout being shown."""

    async def request(self, method: str, path: str, **options: Any) -> Any:
        """An HTTP request to the first process that answers."""
        for attempt in range(int(WAIT / 0.1)):
            base = self.bases[attempt % len(self.bases)]
            headers = {"Origin": base, **({"Cookie": self.cookie} if self.cookie else {})}
            try:
                async with httpx.AsyncClient(base_url=base, trust_env=False) as http:
                    answer = await http.request(method, path, headers=headers, **options)
            except httpx.TransportError:
                await asyncio.sleep(0.1)
                continue
            if answer.status_code >= 500:
                await asyncio.sleep(0.1)
                continue
            answer.raise_for_status()
            if "bidak_session" in answer.cookies:
                self.cookie = f"bidak_session={answer.cookies['bidak_session']}"
            return answer.json()
        raise TimeoutError(f"{method} {path}: no process answered")

    async def play(self) -> dict[str, Any]:
        """Play the seat to the end of the match, reconnecting whenever the socket closes."""
        attempt = 0
        while True:
            if self.home:
                attempt, self.home = 0, False
            base = self.bases[attempt % len(self.bases)]
            killed = self.kills.count.get(base, 0)
            try:
                return await self._connected(base)
            except websockets.ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd is not None else None
                explained = self.kills.count.get(base, 0) != killed
                self.closes.append((base, code, explained, time.time()))
                if code is None:
                    attempt += 1  # its process may be gone: try the other
            except (OSError, websockets.InvalidStatus, websockets.InvalidHandshake):
                attempt += 1
                await asyncio.sleep(0.05)

    async def _connected(self, base: str) -> dict[str, Any]:
        ws_url = base.replace("http", "ws", 1) + "/ws"
        async with connect(
            ws_url,
            additional_headers={"Cookie": self.cookie},
            origin=Origin(base),
            proxy=None,
            open_timeout=WAIT,
        ) as socket:
            self.socket = socket
            await socket.send(
                json.dumps({"type": "join", "room": self.room, "since": self.version})
            )
            joined = False  # act on the table this socket sends, not on an older one
            acted_on = -1
            while True:
                table = self.table
                if table is not None and table["phase"] == "match_over":
                    return table
                if joined and table is not None and acted_on != self.version:
                    action = self.script.choose(table)
                    if action is not None and self._stall(action):
                        action = None
                    if action is not None:
                        acted_on = self.version
                        await asyncio.sleep(self.rng.uniform(*self.plan.think))
                        intent = {"type": "intent", "action": action, "version": self.version}
                        await socket.send(json.dumps(intent))
                message = json.loads(await asyncio.wait_for(socket.recv(), WAIT))
                joined = joined or message["type"] == "snapshot"
                if message["type"] == "error" and message["code"] == "busy":
                    acted_on = -1  # nothing (or all) of it was stored: send it again
                    await asyncio.sleep(0.1)
                self.take(message)

    def _stall(self, action: dict[str, Any]) -> bool:
        """Whether to let the clock run out instead of taking ``action``."""
        if action["type"] not in ("roll", "play") or self.stalling is not None:
            return self.stalling is not None
        self.decisions += 1
        deadline = self.deadline
        if (
            self.decisions >= (self.stall_at or 10**9)
            and deadline is not None
            and deadline["player"] == self.seat
        ):
            self.stall_at, self.stalling = None, float(deadline["at"])
            return True
        return False

    def take(self, message: dict[str, Any]) -> None:
        if message["type"] == "error":
            if message["code"] not in ("busy", "stale"):
                self.errors.append(f"{message['code']}: {message.get('message')}")
            return
        if message["type"] not in ("snapshot", "events") or message["room"] != self.room:
            return
        self.match = message["match"] or self.match
        items = message.get("missed", []) + message.get("events", [])
        now = time.time()
        for item in items:
            self.shown.append((item["version"], item["event"]))
            self.shown_at.append(now)
            event = item["event"]
            if (
                self.stalling is not None
                and event["type"] == "timed_out"
                and event["player"] == self.seat
            ):
                self.stalls.append(now - self.stalling)
                self.stalling = None
        if message["version"] >= self.version and message["table"] is not None:
            self.version, self.table = message["version"], message["table"]
            self.deadline = message.get("deadline")
        if message["type"] == "snapshot":
            self.seat = message["seat"]
            self.snapshots.append(now)

    async def go_home(self) -> None:
        """Leave the process this browser moved to for its own, back after a kill."""
        if self.socket is not None and self.bases[0] != self.socket_base():
            self.home = True
            await self.socket.close()

    def socket_base(self) -> str:
        host, port = self.socket.remote_address[:2]
        return f"http://{host}:{port}"
