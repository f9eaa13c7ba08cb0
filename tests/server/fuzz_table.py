"""The table the WebSocket fuzz tests (:mod:`tests.server.test_fuzz`) send their frames to: one
real server on an event loop in a thread of its own, a friend match that waits on Bob, and four
connections (Alice and Bob seated, Eve watching, Mallory never joined)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest

from bidak.server.shared.clocks import ManualClock
from tests.server.harness import Client, Running, friend_room, running_server, server_settings

T = TypeVar("T")
LIMIT = 4096  # the server's max_message_bytes


class LoopThread:
    """An asyncio loop running in a thread; :meth:`run` waits for a coroutine on it."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()

    def run(self, work: Coroutine[Any, Any, T], timeout: float = 60.0) -> T:
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(timeout)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)
        self.loop.close()


class ErrorLog(logging.Handler):
    """Keeps every record at ERROR or above (uvicorn's own logger does not reach the root)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    @contextlib.contextmanager
    def watching(self, *names: str) -> Iterator[ErrorLog]:
        loggers = [logging.getLogger(name) for name in names]
        for logger in loggers:
            logger.addHandler(self)
        try:
            yield self
        finally:
            for logger in loggers:
                logger.removeHandler(self)


@dataclass
class Table:
    running: Running
    room: str
    match: str
    version: int
    events: int
    clients: dict[str, Client]
    seats: dict[str, int | None]
    allowed: dict[str, set[str]]
    log: ErrorLog
    loop: LoopThread
    mallory_joined: bool = False


def _bobs_decision(table: dict[str, Any]) -> bool:
    allowed = set(table["allowed"])
    if allowed & {"take", "drop", "accept_resign", "reject_resign"}:
        return True
    return table["turn"] == 1 and bool(allowed & {"roll", "play", "double"})


async def _quiet(*clients: Client) -> None:
    """Read whatever is still on its way to each client."""
    for client in clients:
        with contextlib.suppress(TimeoutError):
            while True:
                await client.receive(timeout=0.3)


async def open_table(stack: contextlib.AsyncExitStack, folder: Path, loop: LoopThread) -> Table:
    # A rate limit that never bites here: bursts have their own test with a small limit.
    config = server_settings(
        folder, rate_per_second=1e6, rate_burst=1_000_000, room_misses_per_minute=1e6
    )
    assert config.max_message_bytes == LIMIT
    # A clock that stands still: with the system's, Bob's 90 s ran out during a long run
    # (3,000 examples) and auto-play moved the match on, which looked like a frame had.
    running = await stack.enter_async_context(running_server(config, ManualClock()))
    clients = {
        name: await stack.enter_async_context(Client(running))
        for name in ("alice", "bob", "eve", "mallory")
    }
    alice, bob, eve, mallory = clients.values()
    _, room = await friend_room(alice, bob)
    for client in (alice, bob, eve):
        await client.join(room["code"])
    await mallory.connect()
    # Alice rolls and plays until the decision is Bob's and nothing else is running.
    for _ in range(10):
        await running.services.rooms.settle()
        await _quiet(alice, bob, eve)
        assert bob.table is not None and alice.table is not None
        if _bobs_decision(bob.table):
            break
        allowed = set(alice.table["allowed"])
        if "play" in allowed:
            steps = [step[:2] for step in alice.table["legal_plays"][0]["steps"]]
            await alice.act({"type": "play", "steps": steps})
        elif "roll" in allowed:
            await alice.act({"type": "roll"})
        else:  # pragma: no cover - the dice decide; the loop only needs Alice's turn to end
            pytest.fail(f"unexpected table {alice.table}")
    assert alice.table is not None and bob.table is not None and _bobs_decision(bob.table)
    row = await running.services.store.match(room["match_id"])
    assert row is not None
    stored = await running.services.store.events(room["match_id"])
    return Table(
        running=running,
        room=room["code"],
        match=room["match_id"],
        version=row.version,
        events=len(stored),
        clients=clients,
        seats={"alice": 0, "bob": 1, "eve": None, "mallory": None},
        allowed={
            "alice": set(alice.table["allowed"]),
            "bob": set(bob.table["allowed"]),
            "eve": set(),
            "mallory": set(),
        },
        log=ErrorLog(),
        loop=loop,
    )
