"""What a SQLite commit costs the server: the process's CPU time an append, end to end (the
append batcher, ``Database.write``, the commit, the WAL checkpoints), with each
``BIDAK_SQLITE_SYNC`` (``docs/performance.md``, "What a SQLite commit costs").

    .venv/bin/python scripts/measure_commits.py [--matches 200] [--rounds 40]

Each round appends to every match once (2 events and its new state, as an action does), the
appends of ``k`` matches at a time so that they share a commit, as the group commit gathers
the actions that arrive together. Prints the CPU of every thread of the process, and the wall
time, per append, for k = 1, 2, 4 and 8 and each setting (with ``moves`` the appends are a live
match's moves, which it leaves unsynced). The machine is shared: compare the
rows of one run.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
import tempfile
import time
from pathlib import Path

import uvloop

sys.path.insert(0, str(Path(__file__).parent))

from measure_appends import _changes, _matches

from bidak.server.play.storage import Store
from bidak.server.shared.settings import SqliteSync
from bidak.server.shared.store.db import Database


async def _measure(
    sync: SqliteSync, matches: int, rounds: int, together: int
) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as folder:
        db = Database(f"sqlite:///{Path(folder) / 'commits.sqlite3'}", sync)
        await db.migrate()
        db.start_checkpoints()
        store = Store(db)
        try:
            made = await _matches(store, matches)
            versions = {match_id: version for match_id, version, _, _ in made}
            gc.collect()
            gc.freeze()  # as the server's collector does (bidak.server.shared.collector)
            count = 0
            cpu, wall = time.process_time(), time.perf_counter()
            for _ in range(rounds):
                for first in range(0, matches, together):
                    changes = _changes(
                        [
                            (match_id, versions[match_id], state, payloads)
                            for match_id, _, state, payloads in made[first : first + together]
                        ]
                    )
                    for change in changes:
                        versions[change.match_id] += len(change.events)
                    await asyncio.gather(*(store.append(change) for change in changes))
                    count += len(changes)
            return (time.process_time() - cpu) / count, (time.perf_counter() - wall) / count
        finally:
            await store.close()
            await db.close()


async def main(matches: int, rounds: int) -> None:
    gc.disable()
    print(f"{'sync':<7} {'a commit':>8} {'CPU µs an append':>17} {'wall µs':>8}")
    for together in (1, 2, 4, 8):
        for sync in ("full", "moves", "normal"):
            cpu, wall = await _measure(sync, matches, rounds, together)
            print(f"{sync:<7} {together:>8} {cpu * 1e6:>17.0f} {wall * 1e6:>8.0f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=40)
    arguments = parser.parse_args()
    uvloop.run(main(arguments.matches, arguments.rounds))
