"""A SQLite write-ahead log is started over under a load that never stops.

The checkpoints copy the log into the file every two seconds; the log is started over only
when a copy took all of it. While moves keep coming a commit lands during every copy, and the
log grew for as long as the load lasted (1.27 GB in two and a half minutes of the server bench).
A log longer than ``LOG_KEPT_BYTES`` (here: any) is now copied whole while the writer waits.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bidak.server.play.storage import Store
from bidak.server.shared.settings import SqliteSync
from bidak.server.shared.store import db as db_module
from tests.server.test_appends import START, _change, _new_match, opened

pytestmark = pytest.mark.anyio


def _restarts(log: Path) -> int:
    """How many times the log at ``log`` was started over: its header's checkpoint sequence
    number (the write-ahead log format, bytes 12-15, big-endian)."""
    with log.open("rb") as file:
        header = file.read(16)
    return int.from_bytes(header[12:16], "big")


async def _moves(store: Store, matches: list[str], stop: asyncio.Event, made: list[int]) -> None:
    """Append to each of ``matches`` in turn until ``stop``, counting the commits in ``made``."""
    versions = dict.fromkeys(matches, START)
    while not stop.is_set():
        for match_id in matches:
            await store.append(_change(match_id, versions[match_id], made[0]))
            versions[match_id] += 2
            made[0] += 1
        await asyncio.sleep(0)  # the checkpoint's answer gets a turn of the loop


@pytest.mark.parametrize("sync", ["moves", "full"])
async def test_the_log_is_started_over_while_moves_keep_coming(
    tmp_path: Path, sync: SqliteSync, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(db_module, "LOG_KEPT_BYTES", 0)  # every log is a long one
    path = tmp_path / "load.sqlite3"
    log = Path(f"{path}-wal")
    async with opened(f"sqlite:///{path}", sync) as store:
        matches = [await _new_match(store) for _ in range(40)]
        stop, made = asyncio.Event(), [0]
        moves = asyncio.create_task(_moves(store, matches, stop, made))
        try:
            for _ in range(3):
                before, started = _restarts(log), made[0]
                await store.db.checkpoint()  # the moves go on meanwhile
                during, after = made[0] - started, made[0]
                while made[0] < after + 2:  # a commit after the checkpoint (the next one)
                    await asyncio.sleep(0)
                assert during > 0, "no commit landed during the checkpoint"
                assert _restarts(log) > before, "the log was not started over"
        finally:
            stop.set()
            await moves
        for match_id in matches:  # and nothing was lost by starting the log over
            row = await store.match(match_id)
            assert row is not None and row.version > START
