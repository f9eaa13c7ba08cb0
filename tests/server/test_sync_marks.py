"""Which appends must reach the disk at their commit (``Append.synced``): with the default
``BIDAK_SQLITE_SYNC=moves`` only a live match's moves may wait for the next checkpoint; the
append that ends a match (its result, its ratings) and every move of a correspondence match
(its opponent is told by push and e-mail) are synced (docs/operating.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bidak.server.play.queries import Append
from bidak.server.shared.clocks import ManualClock
from tests.server.harness import Client, friend_room, running_server, server_settings
from tests.server.scripted import Script, drive, play_all

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("options", [{"move_seconds": 90}, {"days_per_move": 1}])
async def test_only_a_live_matchs_moves_may_wait_for_the_checkpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, options: dict[str, Any]
) -> None:
    async with running_server(server_settings(tmp_path), ManualClock()) as running:
        assert running.services.settings.sqlite_sync == "moves"  # the default
        store = running.services.store
        original = store.append
        appended: list[Append] = []

        async def append(change: Append) -> None:
            appended.append(change)
            await original(change)

        monkeypatch.setattr(store, "append", append)
        async with Client(running) as alice, Client(running) as bob:
            room, _ = await friend_room(alice, bob, length=1, **options)
            seats = [(await client.join(room["code"]))["seat"] for client in (alice, bob)]
            await play_all(drive(alice, Script(3), seats[0]), drive(bob, Script(4), seats[1]))
        moves, end = appended[:-1], appended[-1]
        assert end.finished and end.synced
        assert len(moves) > 10 and not any(change.finished for change in moves)
        correspondence = "days_per_move" in options
        assert all(change.synced is correspondence for change in moves)
