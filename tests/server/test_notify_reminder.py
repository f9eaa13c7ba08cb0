"""Time almost up (issue 38): at 80% of a correspondence decision's allowance the player who
must decide is reminded, once, even with two server processes (instances on one PostgreSQL
database and one Redis bus) both holding the match's clock; nothing before 80%."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

import pytest

from bidak.correspondence import DAY
from bidak.server.shared.clocks import ManualClock
from tests.server import backends
from tests.server.harness import Client, Running, running_server, server_settings

pytestmark = pytest.mark.anyio
postgres_url = backends.postgres_url
redis_url = backends.redis_url


def _told(running: Running, calls: list[bool]) -> None:
    """Record what each of this instance's notification writes found (True: it stored)."""
    notes = running.services.notifications
    tell = notes.tell

    async def counted(key: str, player_id: str, kind: str, room: str | None = None) -> bool:
        stored = await tell(key, player_id, kind, room)
        if kind == "time":
            calls.append(stored)
        return stored

    notes.tell = counted  # type: ignore[method-assign]


async def _kinds(client: Client) -> list[str]:
    body: dict[str, Any] = (await client.http.get("/api/notifications")).json()
    return [n["kind"] for n in body["notes"]]


async def test_time_almost_up_is_told_once_across_two_processes(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    clock = ManualClock()
    prefix = f"bidak-test-{secrets.token_hex(6)}:"
    settings = {
        name: server_settings(
            tmp_path / name,
            database_url=postgres_url,
            bus_url=redis_url,
            instance_id=name,
            redis_prefix=prefix,
        )
        for name in ("a", "b")
    }
    calls: list[bool] = []
    async with running_server(settings["a"], clock) as a, Client(a) as alice, Client(a) as bob:
        _told(a, calls)
        made = await alice.http.post(
            "/api/rooms", json={"kind": "friend", "length": 3, "days_per_move": 1}
        )
        code = made.json()["code"]
        assert (await bob.http.post(f"/api/rooms/{code}/join")).status_code == 200
        await alice.join(code, since=0)
        await bob.join(code, since=0)
        deadline = alice.messages[-1]["deadline"]
        late = (alice, bob)[deadline["player"]]
        # Instance B starts now and re-arms the match's clock, which A holds too.
        async with running_server(settings["b"], clock) as b:
            _told(b, calls)
            await clock.advance(0.79 * DAY)
            await a.services.rooms.settle()
            await b.services.rooms.settle()
            assert "time" not in await _kinds(late)
            await clock.advance(0.02 * DAY)
            await a.services.rooms.settle()
            await b.services.rooms.settle()
            assert (await _kinds(late)).count("time") == 1
            assert "time" not in await _kinds(alice if late is bob else bob)
            assert calls.count(True) == 1 and len(calls) == 2  # both reminded; one stored
