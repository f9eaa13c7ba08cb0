"""Nothing lost (issue 4): the server is killed with SIGKILL at random points of many matches.

A real ``bidak serve`` subprocess on a SQLite file. Friend matches (two scripted clients each)
and practice matches against the beginner bot play at once over real WebSockets, each client
recording every event it is shown (``missed`` in a snapshot, ``events`` messages). At seeded
random moments the server is killed with SIGKILL and started again on the same file and port;
the clients reconnect, join with ``since`` = the last version they saw, and play on, sending
again whatever intent the kill swallowed.

At the end every match is over and, for every client, the events it was shown are the stored
log (``GET /api/matches/{id}/events``) version by version: each version once, in order, none
missing, none shown that is not stored. The stored log replays to the state the server keeps
and to the table the client was shown last, and its dice are the ones the match's seed draws:
a kill can neither lose nor change what a player saw.

Longer local runs: ``BIDAK_CRASH_FRIENDS``, ``BIDAK_CRASH_PRACTICE``, ``BIDAK_CRASH_KILLS`` and
``BIDAK_CRASH_SEED`` (the defaults keep the test under a minute).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from websockets.asyncio.client import connect
from websockets.typing import Origin

from bidak.bench.server import ServerProcess
from bidak.match import Phase, Player, event_from_json, replay, state_to_json
from bidak.server.play.dice import all_dice
from bidak.server.play.protocol import match_view
from tests.server.scripted import Script

pytestmark = pytest.mark.anyio

FRIENDS = int(os.environ.get("BIDAK_CRASH_FRIENDS", "4"))
PRACTICE = int(os.environ.get("BIDAK_CRASH_PRACTICE", "2"))
KILLS = int(os.environ.get("BIDAK_CRASH_KILLS", "5"))
SEED = int(os.environ.get("BIDAK_CRASH_SEED", "2026"))
EVENTS_PER_MATCH = 150
"""A low guess of a 3-point match's events, to spread the kills over a round of matches (when
short matches end before every kill, another round is played)."""
SERVER_ENV = {
    "BIDAK_BOT_DELAY": "0",
    "BIDAK_ENVIRONMENT": "test",
    # Scripted players against an instant bot act faster than people: lift the rate limit.
    "BIDAK_RATE_PER_SECOND": "1000",
    "BIDAK_RATE_BURST": "1000",
    # ... and the per-player one over all of a player's sockets (a refused intent is answered
    # with rate_limited, and the scripted player, having acted on that table, waits forever).
    "BIDAK_PLAYER_RATE_PER_SECOND": "1000",
    "BIDAK_PLAYER_RATE_BURST": "1000",
    # Every player comes from 127.0.0.1: a longer run has more than a minute's new guests.
    "BIDAK_GUESTS_PER_MINUTE": "1000000",
}
WAIT = 30.0
"""Seconds a client waits for a message before the test fails (a restart takes a few)."""


class Browser:
    """One browser: a session cookie (stored, so it outlives the server) and a WebSocket that is
    opened again whenever the server goes away."""

    def __init__(self, base: str, script: Script) -> None:
        self.base, self.script = base, script
        self.cookie = ""
        self.room = ""
        self.match = ""
        self.seat: int | None = None
        self.table: dict[str, Any] | None = None
        self.version = 0
        self.shown: list[tuple[int, dict[str, Any]]] = []
        self.refused: list[dict[str, Any]] = []
        self.connections = 0

    async def request(self, method: str, path: str, **options: Any) -> Any:
        """An HTTP request, tried again while the server is down."""
        headers = {"Origin": self.base, **({"Cookie": self.cookie} if self.cookie else {})}
        for _ in range(int(WAIT / 0.1)):
            try:
                async with httpx.AsyncClient(base_url=self.base, trust_env=False) as http:
                    answer = await http.request(method, path, headers=headers, **options)
            except httpx.TransportError:
                await asyncio.sleep(0.1)
                continue
            answer.raise_for_status()
            if "bidak_session" in answer.cookies:
                self.cookie = f"bidak_session={answer.cookies['bidak_session']}"
            return answer.json()
        raise TimeoutError(f"{method} {path}: the server did not come back")

    async def play(self) -> dict[str, Any]:
        """Play the seat to the end of the match, reconnecting after every kill."""
        while True:
            try:
                return await self._connected()
            except TimeoutError:
                raise  # a server that is up but silent is a failure, not a kill
            except (OSError, websockets.WebSocketException):
                await asyncio.sleep(0.05)

    async def _connected(self) -> dict[str, Any]:
        ws_url = self.base.replace("http", "ws", 1) + "/ws"
        async with connect(
            ws_url,
            additional_headers={"Cookie": self.cookie},
            origin=Origin(self.base),
            proxy=None,
            open_timeout=WAIT,
        ) as socket:
            self.connections += 1
            await socket.send(
                json.dumps({"type": "join", "room": self.room, "since": self.version})
            )
            joined = False  # act on the table the new server sends, not on the old one
            acted_on = -1
            while True:
                table = self.table
                if table is not None and table["phase"] == "match_over":
                    return table
                if joined and table is not None and acted_on != self.version:
                    action = self.script.choose(table)
                    if action is not None:
                        acted_on = self.version
                        intent = {"type": "intent", "action": action, "version": self.version}
                        await socket.send(json.dumps(intent))
                message = json.loads(await asyncio.wait_for(socket.recv(), WAIT))
                joined = joined or message["type"] == "snapshot"
                self.take(message)

    def take(self, message: dict[str, Any]) -> None:
        if message["type"] == "error":
            self.refused.append(message)
            return
        if message["type"] not in ("snapshot", "events") or message["room"] != self.room:
            return
        self.match = message["match"] or self.match
        items = message.get("missed", []) + message.get("events", [])
        self.shown += [(item["version"], item["event"]) for item in items]
        if message["version"] >= self.version and message["table"] is not None:
            self.version, self.table = message["version"], message["table"]
        if message["type"] == "snapshot":
            self.seat = message["seat"]


async def _friend_match(base: str, seed: int) -> list[Browser]:
    host = Browser(base, Script(seed, double=0.1, drop=0.2))
    guest = Browser(base, Script(seed + 1, double=0.1, drop=0.2))
    room = await host.request(
        "POST", "/api/rooms", json={"kind": "friend", "length": 3, "move_seconds": 90}
    )
    await guest.request("POST", f"/api/rooms/{room['code']}/join")
    host.room = guest.room = room["code"]
    return [host, guest]


async def _practice_match(base: str, seed: int) -> list[Browser]:
    player = Browser(base, Script(seed, double=0.1, drop=0.2))
    options = {"kind": "practice", "length": 3, "level": "beginner"}
    player.room = (await player.request("POST", "/api/rooms", json=options))["code"]
    return [player]


async def _kill_at_random(
    server: ServerProcess,
    browsers: list[Browser],
    plays: list[asyncio.Task[Any]],
    rng: random.Random,
    kills: list[int],
) -> None:
    """Kill the server each time the clients have been shown a random number of further events,
    a random moment later, and start it again after a random pause; until ``KILLS`` kills or
    the end of these matches. Appends the number of events shown before each kill."""
    step = EVENTS_PER_MATCH * len(browsers) / (KILLS + 1)
    while len(kills) < KILLS:
        target = sum(len(b.shown) for b in browsers) + rng.uniform(0.3, 1.2) * step
        while sum(len(b.shown) for b in browsers) < target:
            if all(play.done() for play in plays):
                return
            await asyncio.sleep(0.005)
        await asyncio.sleep(rng.uniform(0, 0.05))
        server.kill()
        kills.append(sum(len(b.shown) for b in browsers))
        await asyncio.sleep(rng.uniform(0, 0.3))
        server.start(**SERVER_ENV)
        await server.ready()


def _stored_state(database: Path, match_id: str) -> dict[str, Any]:
    with sqlite3.connect(database) as db:
        row = db.execute("SELECT state FROM matches WHERE id = ?", (match_id,)).fetchone()
    state: dict[str, Any] = json.loads(row[0])
    return state


@pytest.mark.parametrize("sync", ["full", "moves", "normal"])
async def test_sigkill_at_random_points_loses_nothing(tmp_path: Path, sync: str) -> None:
    """With each BIDAK_SQLITE_SYNC: ``moves`` and ``normal`` give up only a power cut's commits,
    not a killed process's."""
    database = tmp_path / "bidak.sqlite3"
    server = ServerProcess.bidak(f"sqlite:///{database}", log=tmp_path / "server.log")
    server.start(**SERVER_ENV, BIDAK_SQLITE_SYNC=sync)
    try:
        await server.ready()
        rng = random.Random(SEED)
        matches: list[list[Browser]] = []
        kills: list[int] = []
        while len(kills) < KILLS:  # another round if short matches ended before every kill
            seed = 100 * len(matches)
            batch = [await _friend_match(server.url, seed + 10 * n) for n in range(FRIENDS)]
            batch += [await _practice_match(server.url, seed + 10 * n + 5) for n in range(PRACTICE)]
            browsers = [browser for match in batch for browser in match]
            plays = [asyncio.create_task(browser.play()) for browser in browsers]
            await _kill_at_random(server, browsers, plays, rng, kills)
            finals = await asyncio.wait_for(asyncio.gather(*plays), 240)
            assert all(final["phase"] == "match_over" for final in finals)
            matches += batch
        print(f"{len(matches)} matches; killed after {kills} events shown")

        for match in matches:
            first = match[0]
            log = (await first.request("GET", f"/api/matches/{first.match}/events"))["events"]
            stored = [(item["version"], item["event"]) for item in log]
            assert [version for version, _ in stored] == list(range(1, len(stored) + 1))
            for browser in match:
                # Each version shown once, in order, none missing, none that is not stored.
                assert [v for v, _ in browser.shown] == list(range(1, len(browser.shown) + 1))
                assert browser.shown == stored
                assert browser.refused == []

            state = replay(event_from_json(event) for _, event in stored)
            assert state.phase is Phase.MATCH_OVER
            assert state_to_json(state) == _stored_state(database, first.match)
            for browser in match:
                assert browser.seat is not None
                assert browser.table == match_view(state, Player(browser.seat))

            proof = await first.request("GET", f"/api/matches/{first.match}/dice")
            rolled = [
                die
                for _, event in stored
                if event["type"] in ("opening_tie", "opening_rolled", "dice_rolled")
                for die in event["dice"]
            ]
            assert rolled == all_dice(proof["seed"], proof["dice_drawn"])
    finally:
        server.stop()
