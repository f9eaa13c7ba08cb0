"""Measure the one SQL written twice: a match append on SQLite, through SQLAlchemy Core and
through the sqlite3 driver itself (``docs/performance.md``, "The SQLite append").

    .venv/bin/python scripts/measure_appends.py [--matches 64] [--rounds 400]

An append's statements run on the event loop's thread (``Database.write`` on a SQLite file), so
their time is time every table waits. This times only them, as the thread's CPU time (the
machine is shared: wall time would count other processes' turns): each round runs the append of one
batch (1, 8 and 64 matches, each with 2 events and its new state) in a transaction on the
direct connection and rolls it back, so every round writes the same rows and no commit (a disk
sync, made on another thread) is counted. Python's cyclic collector is off, as in the server
(:mod:`bidak.server.shared.collector`). Prints the median and the 90th percentile per batch.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from unittest import mock

from sqlalchemy.engine import Connection

from bidak.match import RuleSet, event_to_json, rules_to_json, start_match, state_to_json
from bidak.server.play import append_queries
from bidak.server.play.queries import Append
from bidak.server.play.storage import Store
from bidak.server.play.tables import MatchRow, RoomRow
from bidak.server.shared.store.db import Database
from bidak.server.shared.store.rows import new_id


async def _matches(store: Store, count: int) -> list[tuple[str, int, dict[str, Any], list[Any]]]:
    player, _ = await store.create_guest("Ana")
    rules = RuleSet(length=5)
    state, events = start_match(rules)
    made = []
    for _ in range(count):
        code = new_id()[:22]
        await store.create_room(
            RoomRow(
                code=code,
                kind="friend",
                created_at=datetime.now(UTC),
                creator_id=player.id,
                seat0_id=player.id,
                rules=rules_to_json(rules),
            )
        )
        match_id = new_id()
        now = datetime.now(UTC)
        row = MatchRow(
            id=match_id,
            room_code=code,
            rules=rules_to_json(rules),
            state=state_to_json(state),
            version=state.version,
            seed="s" * 64,
            seed_hash="h" * 64,
            dice_drawn=0,
            finished=False,
            created_at=now,
            updated_at=now,
        )
        await store.create_match(code, row, [event_to_json(e) for e in events], 0.0)
        payloads = [event_to_json(e) for e in events[-2:]]
        made.append((match_id, state.version, state_to_json(state), payloads))
    return made


def _changes(made: Sequence[tuple[str, int, dict[str, Any], list[Any]]]) -> list[Append]:
    return [
        Append(
            match_id=match_id,
            expected_version=version,
            events=payloads,
            state=state,
            dice_drawn=2,
            deadline=1e9,
            deadline_version=version + len(payloads),
            finished=False,
            at=time.time(),
            synced=False,  # a live match's move, as BIDAK_SQLITE_SYNC=moves treats it
        )
        for match_id, version, state, payloads in made
    ]


def _time(db: Database, work: Callable[[Connection], object], rounds: int) -> list[float]:
    assert db.direct is not None
    gc.collect()
    # as the server's collector does (bidak.server.shared.collector): no walks in between
    gc.freeze()
    spent = []
    with db.direct.connect() as connection:
        for _ in range(rounds):
            transaction = connection.begin()
            started = time.thread_time()
            work(connection)
            spent.append(time.thread_time() - started)
            transaction.rollback()
    return spent


def _core(connection: Connection, changes: list[Append]) -> object:
    """The dialect-neutral Core path, as PostgreSQL runs it (SQLite's shortcut turned off)."""
    with mock.patch.object(connection.dialect, "name", "not-sqlite"):
        return append_queries.append_all(connection, changes)


async def main(matches: int, rounds: int) -> None:
    gc.disable()
    with tempfile.TemporaryDirectory() as folder:
        db = Database(f"sqlite:///{Path(folder) / 'appends.sqlite3'}")
        await db.migrate()
        store = Store(db)
        try:
            made = await _matches(store, matches)
            db.drop_writer()  # the direct engine's one connection, for _time and _outcomes
            print(f"{'batch':>5} {'way':<7} {'median µs':>10} {'p90 µs':>8} {'per append':>11}")
            for size in (1, 8, matches):
                changes = _changes(made[:size])
                for name, way in (
                    ("core", lambda c, ch=changes: _core(c, ch)),
                    ("driver", lambda c, ch=changes: append_queries.append_all(c, ch)),
                ):
                    assert all(o is None for o in _outcomes(db, way))
                    spent = sorted(_time(db, way, rounds))
                    median = statistics.median(spent) * 1e6
                    p90 = spent[int(0.9 * len(spent))] * 1e6
                    print(f"{size:>5} {name:<7} {median:>10.0f} {p90:>8.0f} {median / size:>11.0f}")
        finally:
            await store.close()
            await db.close()


def _outcomes(db: Database, way: Callable[[Connection], object]) -> list[object]:
    """One round's outcomes (all None: every append was accepted), rolled back too."""
    assert db.direct is not None
    with db.direct.connect() as connection:
        transaction = connection.begin()
        outcomes = way(connection)
        transaction.rollback()
    assert isinstance(outcomes, list)
    return outcomes


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--matches", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=400)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.matches, arguments.rounds))
