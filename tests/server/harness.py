"""A real server on a loopback port, and real HTTP/WebSocket clients for it."""

from __future__ import annotations

import asyncio
import hashlib
import json
import secrets
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import uvicorn
import websockets
from websockets.typing import Origin

from bidak.server.app import create_app
from bidak.server.app.services import Services
from bidak.server.play.dice import new_seed
from bidak.server.play.wire.messages import ServerMessage
from bidak.server.shared.clocks import Clock
from bidak.server.shared.http_limits import http_options
from bidak.server.shared.settings import Settings

WAIT = 20.0


@dataclass
class Running:
    base: str
    services: Services

    @property
    def ws_url(self) -> str:
        return self.base.replace("http", "ws", 1) + "/ws"


def server_settings(tmp_path: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "database_url": f"sqlite:///{tmp_path / 'bidak.sqlite3'}",
        "environment": "test",
        "bot_delay": 0.0,
        # Scripted players act at machine speed against bots that answer at once: a 1-point
        # match with unlucky dice can pass the per-connection rate limit meant for people.
        # test_fuzz sets the limit itself where the limit is what is tested.
        "rate_per_second": 10_000.0,
        "rate_burst": 10_000,
        "player_rate_per_second": 10_000.0,
        "player_rate_burst": 10_000,
        # Redis is shared with other test runs: this server's keys are its own.
        "redis_prefix": f"bidak-test-{secrets.token_hex(6)}:",
    }
    values.update(overrides)
    return Settings(**values)


@asynccontextmanager
async def running_server(
    settings: Settings, clock: Clock | None = None, seed: str | None = "tests"
) -> AsyncIterator[Running]:
    """A server whose match dice come from seeds derived from ``seed`` (None: truly random)."""
    app = create_app(settings, clock, seeded(seed) if seed is not None else new_seed)
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=0,
        log_level="warning",
        lifespan="on",
        **http_options(settings),  # the bounds on request heads that `bidak serve` sets
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    for _ in range(2000):
        if server.started or task.done():
            break
        await asyncio.sleep(0.005)
    else:
        server.should_exit = True
        await task
        raise TimeoutError("the server did not start listening within 2000 checks")
    if task.done():
        task.result()
        raise RuntimeError("the server stopped before it listened (a signal asked it to exit?)")
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield Running(f"http://127.0.0.1:{port}", app.state.services)
    finally:
        server.should_exit = True
        await task


def seeded(base: str) -> Callable[[], str]:
    """Dice seeds for successive matches, fixed by ``base`` so a test replays the same dice."""
    counter = iter(range(10**9))
    return lambda: hashlib.sha256(f"{base}:{next(counter)}".encode()).hexdigest()


class Client:
    """One browser: an HTTP client with its session cookie, and one WebSocket."""

    def __init__(self, running: Running) -> None:
        self.running = running
        # A browser names the page a change comes from; the server takes changes only from its
        # own pages (bidak.server.shared.security). It waits for an answer as long as for a
        # message (WAIT), not httpx's 5 s: a review is seconds of CPU (1.5 s of a quiet core at
        # 1ply), and a CI run on a slower machine with three workers on two cores took over 5 s.
        self.http = httpx.AsyncClient(
            base_url=running.base, headers={"Origin": running.base}, timeout=WAIT
        )
        self.ws: Any = None
        self.table: dict[str, Any] | None = None
        self.version = 0
        self.messages: list[dict[str, Any]] = []

    async def __aenter__(self) -> Client:
        (await self.http.get("/api/me")).raise_for_status()
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.ws is not None:
            await self.ws.close()
        await self.http.aclose()

    @property
    def cookie(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())

    async def connect(self) -> None:
        self.ws = await websockets.connect(
            self.running.ws_url,
            additional_headers={"Cookie": self.cookie},
            origin=Origin(self.running.base),
        )

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def receive(self, timeout: float = WAIT) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        # Every message the server sends is one of the wire's (bidak.server.play.wire.messages).
        ServerMessage.validate_python(message)
        self.messages.append(message)
        if (
            message.get("type") in ("snapshot", "events")
            and message.get("version", 0) >= self.version
        ):
            self.version = message["version"]
            if message.get("table") is not None:
                self.table = message["table"]
        return message

    async def until(
        self, accept: Callable[[dict[str, Any]], bool], timeout: float = WAIT
    ) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            message = await self.receive(max(0.01, end - loop.time()))
            if accept(message):
                return message

    async def join(self, room: str, since: int | None = None) -> dict[str, Any]:
        if self.ws is None:
            await self.connect()
        await self.send({"type": "join", "room": room, "since": since})
        return await self.until(lambda m: m["type"] == "snapshot")

    async def act(self, action: dict[str, Any]) -> None:
        await self.send({"type": "intent", "action": action, "version": self.version})


async def friend_room(
    creator: Client, guest: Client, **options: Any
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A friend room ``creator`` makes (3 points, 90 s a move, unless ``options`` say otherwise)
    and ``guest`` joins: the room as created, and the join's answer (seat, match id)."""
    created = await creator.http.post(
        "/api/rooms", json={"kind": "friend", "length": 3, "move_seconds": 90, **options}
    )
    created.raise_for_status()
    room: dict[str, Any] = created.json()
    joined: dict[str, Any] = (await guest.http.post(f"/api/rooms/{room['code']}/join")).json()
    return room, joined


async def link_addresses(running: Running, *player_ids: str) -> None:
    """Give players a linked e-mail address straight in the database (``<id>@example.test``):
    only two accounts with one move each other's ratings (docs/rules.md, rated play). Tests
    about linking itself go through the letter (``tests/server/test_accounts.link_email``)."""
    from sqlalchemy import update

    from bidak.server.shared.store.models import PlayerRow

    table = PlayerRow.__table__
    for player_id in player_ids:
        statement = update(table).where(table.c.id == player_id, table.c.email.is_(None))
        await running.services.db.write(
            lambda c, s=statement, p=player_id: c.execute(s.values(email=f"{p}@example.test"))
        )


async def catch_up(*clients: Client) -> None:
    """Let every client read up to the newest version any of them has."""
    version = max(c.version for c in clients)
    for client in clients:
        while client.version < version:
            await client.receive()


def decides(table: dict[str, Any], seat: int) -> bool:
    """Whether ``seat`` has a decision to make at ``table`` (roll or play on their turn, or
    answer a double or a resignation)."""
    allowed = set(table["allowed"])
    if allowed & {"take", "drop", "accept_resign", "reject_resign"}:
        return True
    return table["turn"] == seat and bool(allowed & {"roll", "play"})
