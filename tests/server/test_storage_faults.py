"""The database fails during an action or a socket's start (issue 29): the client is answered,
the socket stays open, and an action is stored once or not at all.

Failures are injected where the driver raises them: inside the transaction (nothing stored),
after its commit (stored, but the answer lost, as when a connection dies during COMMIT), and
while the session is read at the WebSocket's start.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import websockets
from sqlalchemy.exc import DBAPIError

from tests.server.harness import Client, Running, friend_room, running_server, server_settings

pytestmark = pytest.mark.anyio


def fail_appends(running: Running, times: int, *, after_commit: bool) -> list[int]:
    """Make the next ``times`` match appends fail as a lost connection would: before anything
    is stored, or after the commit (stored, the answer lost). Returns the count of failures."""
    db = running.services.db
    original = db._write_direct
    failed: list[int] = []

    async def write_direct(direct: Any, work: Callable[..., Any], synced: bool) -> Any:
        is_append = getattr(getattr(work, "func", None), "__name__", "") == "append_all"
        if not is_append or len(failed) >= times:
            return await original(direct, work, synced)
        failed.append(1)
        # What SQLAlchemy raises when asyncpg's connection is killed mid-transaction.
        lost = DBAPIError(
            "COMMIT", {}, ConnectionResetError("connection was closed in the middle of operation")
        )
        if after_commit:
            await original(direct, work, synced)
            raise lost

        def broken(connection: Any) -> Any:
            raise lost

        return await original(direct, broken, synced)

    db._write_direct = write_direct  # type: ignore[method-assign]
    return failed


async def seated(running: Running) -> tuple[Client, Client, dict[str, Any], dict[str, Any]]:
    alice, bob = Client(running), Client(running)
    await alice.__aenter__()
    await bob.__aenter__()
    room, joined = await friend_room(alice, bob)
    for client in (alice, bob):
        await client.join(room["code"])
    return alice, bob, room, joined


def mover_of(alice: Client, bob: Client) -> tuple[Client, Client]:
    mover = alice if alice.table and alice.table["legal_plays"] else bob
    return mover, (bob if mover is alice else alice)


async def play_one(mover: Client) -> None:
    play = mover.table["legal_plays"][0]  # type: ignore[index]
    await mover.act({"type": "play", "steps": [s[:2] for s in play["steps"]]})


async def test_an_action_the_database_failed_is_refused_busy_and_stored_once_when_resent(
    tmp_path: Path,
) -> None:
    async with running_server(server_settings(tmp_path)) as running:
        alice, bob, _, joined = await seated(running)
        try:
            mover, other = mover_of(alice, bob)
            before = mover.version
            failed = fail_appends(running, 1, after_commit=False)
            await play_one(mover)
            refused = await mover.until(lambda m: m["type"] == "error")
            assert refused["code"] == "busy" and failed == [1]
            stored = await running.services.store.match(joined["match_id"])
            assert stored is not None and stored.version == before, "nothing was stored"
            await play_one(mover)  # the socket is still open: send it again
            await other.until(lambda m: m["type"] == "events")
            events = await running.services.store.events(joined["match_id"])
            assert [e.payload["type"] for e in events].count("played") == 1
        finally:
            for client in (alice, bob):
                await client.__aexit__()


async def test_an_action_stored_although_its_commit_failed_reaches_everyone_once(
    tmp_path: Path,
) -> None:
    async with running_server(server_settings(tmp_path)) as running:
        alice, bob, _, joined = await seated(running)
        try:
            mover, other = mover_of(alice, bob)
            fail_appends(running, 1, after_commit=True)
            await play_one(mover)
            shown = await other.until(lambda m: m["type"] == "events")
            assert any(item["event"]["type"] == "played" for item in shown["events"])
            await mover.until(lambda m: m["type"] == "events")
            await mover.send({"type": "ping"})
            answers = []
            while (answer := await mover.receive())["type"] != "pong":
                answers.append(answer)
            assert [m for m in answers if m["type"] == "error"] == []
            events = await running.services.store.events(joined["match_id"])
            assert [e.payload["type"] for e in events].count("played") == 1
        finally:
            for client in (alice, bob):
                await client.__aexit__()


async def test_a_socket_whose_session_cannot_be_read_is_refused_with_1013(
    tmp_path: Path,
) -> None:
    async with running_server(server_settings(tmp_path)) as running, Client(running) as alice:
        db = running.services.db

        class Unreachable:
            def connect(self) -> Any:
                raise ConnectionRefusedError("the database is not answering")

        db.reader = Unreachable()  # type: ignore[assignment]
        await alice.connect()
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await alice.receive()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        alice.ws = None
