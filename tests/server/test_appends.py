"""Group commit: appends that arrive together share a transaction, and each keeps its own fate.

On SQLite (the direct connection on the event loop's thread) and on PostgreSQL (one statement
for the batch, through the driver): a batch with one stale writer commits the others and
refuses only that one; two servers racing for one match's next version commit exactly one; a
write lock held by another connection delays an append without stalling the loop; the batcher
answers each writer with its own outcome.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.engine import RootTransaction

from bidak.match import RuleSet, event_to_json, rules_to_json, start_match, state_to_json
from bidak.server.play.queries import Append, Conflict
from bidak.server.play.storage import Store
from bidak.server.play.tables import MatchRow, RoomRow
from bidak.server.shared.settings import SqliteSync
from bidak.server.shared.store.batches import Batcher, WriteResult
from bidak.server.shared.store.db import Database, StorageError
from bidak.server.shared.store.rows import new_id
from tests.server import backends

pytestmark = pytest.mark.anyio
postgres_url = backends.postgres_url
START = len(start_match(RuleSet(length=3)).events)


@contextlib.asynccontextmanager
async def opened(url: str, sync: SqliteSync = "full") -> AsyncIterator[Store]:
    """A store on ``url`` (migrated), closed with its database at the end."""
    db = Database(url, sync)
    await db.migrate()
    store = Store(db)
    try:
        yield store
    finally:
        await store.close()
        await db.close()


@pytest.fixture(params=["sqlite", "sqlite-moves", "sqlite-normal", "postgresql"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    """SQLite with each BIDAK_SQLITE_SYNC (``normal`` commits on the loop's thread, ``moves``
    the moves alone), and PostgreSQL."""
    if request.param.startswith("sqlite"):
        url = f"sqlite:///{tmp_path / 'appends.sqlite3'}"
    else:
        url = request.getfixturevalue("postgres_url")
    settings: dict[str, SqliteSync] = {"sqlite-moves": "moves", "sqlite-normal": "normal"}
    sync = settings.get(request.param, "full")
    async with opened(url, sync) as store:
        yield store


@pytest.mark.parametrize(("sync", "level"), [("full", 2), ("moves", 2), ("normal", 1)])
async def test_sqlite_sync_is_set_on_every_connection(
    tmp_path: Path, sync: SqliteSync, level: int
) -> None:
    """BIDAK_SQLITE_SYNC reaches the writer, the readers and the async engine (whose
    connection makes the checkpoints): SQLite's ``synchronous`` is 2 (FULL) or 1 (NORMAL);
    with ``moves`` every connection starts at FULL (the writer leaves it only for a move)."""
    async with opened(f"sqlite:///{tmp_path / 'sync.sqlite3'}", sync) as store:
        db = store.db
        assert db.direct is not None and db.reader is not None
        for engine in (db.direct, db.reader):
            with engine.connect() as connection:
                assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == level
        async with db.engine.connect() as connection:
            found = await connection.exec_driver_sql("PRAGMA synchronous")
            assert found.scalar() == level


async def _new_match(store: Store) -> str:
    """A stored match at version ``START`` (its first events); returns its id."""
    player, _ = await store.create_guest()
    rules = RuleSet(length=3)
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
    state, events = start_match(rules)
    assert state.version == START
    row = MatchRow(
        id=new_id(),
        room_code=code,
        rules=rules_to_json(rules),
        state=state_to_json(state),
        version=state.version,
        seed="s",
        seed_hash="h",
        dice_drawn=0,
        deadline=None,
        deadline_version=None,
        finished=False,
        created_at=datetime.now(UTC),
        updated_at=datetime.now(UTC),
    )
    await store.create_match(code, row, [event_to_json(e) for e in events], 0.0)
    return row.id


def _change(match_id: str, expected: int, marker: int) -> Append:
    return Append(
        match_id=match_id,
        expected_version=expected,
        events=[{"type": "marker", "n": marker}, {"type": "marker", "n": marker + 1}],
        state={"marker": marker},
        dice_drawn=marker,
        deadline=None,
        deadline_version=None,
        finished=False,
        at=1.0,
        synced=False,
    )


def _commits(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, bool]]:
    """From now on, each commit's SQLite ``synchronous`` level (2 FULL, 1 NORMAL) and whether it
    was made on the loop's thread (the caller's), in order."""
    loop_thread = threading.get_ident()
    seen: list[tuple[int, bool]] = []
    real = RootTransaction.commit

    def commit(transaction: RootTransaction) -> None:
        driver = transaction.connection.connection.driver_connection
        assert driver is not None
        level = driver.execute("PRAGMA synchronous").fetchone()[0]
        seen.append((level, threading.get_ident() == loop_thread))
        real(transaction)

    monkeypatch.setattr(RootTransaction, "commit", commit)
    return seen


async def test_normal_commits_on_the_loop_but_the_one_that_starts_the_log_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With ``normal`` a commit has no disk sync to wait for and is made on the loop's thread,
    except the first after a checkpoint that copied the whole log: starting the log over syncs
    its header, so that one goes to the commit thread, and the next is on the loop again."""
    async with opened(f"sqlite:///{tmp_path / 'restart.sqlite3'}", "normal") as store:
        match_id = await _new_match(store)
        seen = _commits(monkeypatch)
        await store.append(_change(match_id, START, 1))
        await store.db.checkpoint()
        await store.append(_change(match_id, START + 2, 3))
        await store.append(_change(match_id, START + 4, 5))
        assert [on_loop for _, on_loop in seen] == [True, False, True]
        row = await store.match(match_id)
        assert row is not None and row.version == START + 6


@pytest.mark.parametrize(
    ("sync", "moves", "other"),
    [
        ("full", (2, False), (2, False)),
        ("moves", (1, True), (2, False)),
        ("normal", (1, True), (1, True)),
    ],
)
async def test_each_commit_is_synced_as_the_setting_says(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    sync: SqliteSync,
    moves: tuple[int, bool],
    other: tuple[int, bool],
) -> None:
    """The level (2 FULL, 1 NORMAL) each commit is made at, and whether on the loop's thread:
    with ``moves`` a match's moves skip the sync and commit on the loop, while the append that
    ends it (its result, its ratings) and any other write (an account) wait for the disk on
    the commit thread, as with ``full``; the writer's level goes back and forth, and what
    each commit stored is there."""
    async with opened(f"sqlite:///{tmp_path / 'levels.sqlite3'}", sync) as store:
        match_id = await _new_match(store)
        seen = _commits(monkeypatch)
        await store.append(_change(match_id, START, 1))
        await store.create_guest()
        await store.append(_change(match_id, START + 2, 3))
        await store.append(replace(_change(match_id, START + 4, 5), finished=True, synced=True))
        await store.append(_change(await _new_match(store), START, 7))
        # Then an account, a room and a match's start: ordinary writes, as a match's end.
        assert seen == [moves, other, moves, other, other, other, other, moves]
        row = await store.match(match_id)
        assert row is not None and row.version == START + 6 and row.finished


async def test_a_stale_writer_is_refused_and_the_rest_of_its_batch_commits(store: Store) -> None:
    ids = [await _new_match(store) for _ in range(4)]
    stale = _change(ids[1], expected=START + 5, marker=100)
    changes = [
        _change(ids[0], START, 10),
        stale,
        _change(ids[2], START, 20),
        _change(ids[3], START, 30),
    ]
    outcomes = await asyncio.gather(
        *(store.append(change) for change in changes), return_exceptions=True
    )
    assert [type(outcome).__name__ for outcome in outcomes] == [
        "NoneType",
        "Conflict",
        "NoneType",
        "NoneType",
    ]
    assert store._appends.batches < len(changes)  # they did share a transaction
    for match_id, marker in ((ids[0], 10), (ids[2], 20), (ids[3], 30)):
        row = await store.match(match_id)
        assert row is not None and row.version == START + 2 and row.state == {"marker": marker}
        events = await store.events(match_id, after=START)
        assert [(e.version, e.payload["n"]) for e in events] == [
            (START + 1, marker),
            (START + 2, marker + 1),
        ]
    untouched = await store.match(ids[1])
    assert untouched is not None and untouched.version == START
    assert await store.events(ids[1], after=START) == []


async def test_an_event_key_already_taken_fails_only_its_own_append(store: Store) -> None:
    first, second = await _new_match(store), await _new_match(store)
    # Another writer stored the next version of ``first`` without moving its row (a torn
    # state that must not happen, but if it did, the unique key still stops a second one).
    async with store.db.engine.begin() as connection:
        await connection.execute(
            text(
                "INSERT INTO events (match_id, version, payload, created_at)"
                " VALUES (:m, :v, '{}', 0)"
            ),
            {"m": first, "v": START + 1},
        )
    outcomes = await asyncio.gather(
        store.append(_change(first, START, 1)),
        store.append(_change(second, START, 5)),
        return_exceptions=True,
    )
    assert isinstance(outcomes[0], Conflict) and outcomes[1] is None
    row = await store.match(second)
    assert row is not None and row.version == START + 2
    row = await store.match(first)
    assert row is not None and row.version == START


async def test_two_servers_appending_to_one_match_each_round_commit_exactly_one(
    store: Store,
) -> None:
    """Two processes on one database (two handles here) race for the same next version of a
    match, round after round: one of each pair commits its events, the other hears Conflict,
    and the log has no gap and no double."""
    async with opened(store.db.url) as other:
        match_id = await _new_match(store)
        version = START
        winners: list[int] = []
        for round_ in range(20):
            marker = 10 * round_
            outcomes = await asyncio.gather(
                store.append(_change(match_id, version, marker)),
                other.append(_change(match_id, version, marker + 5)),
                return_exceptions=True,
            )
            assert sorted(type(outcome).__name__ for outcome in outcomes) == [
                "Conflict",
                "NoneType",
            ]
            winners.append(marker if outcomes[0] is None else marker + 5)
            version += 2
        events = await store.events(match_id, after=START)
        assert [e.version for e in events] == list(range(START + 1, version + 1))
        assert [e.payload["n"] for e in events[::2]] == winners
        row = await other.match(match_id)
        assert row is not None and row.version == version
        assert row.state == {"marker": winners[-1]}


async def test_an_append_on_a_killed_postgresql_connection_fails_and_the_next_one_stores(
    postgres_url: str,
) -> None:
    """PostgreSQL closes the connection an append would use (a restart, an operator): that
    append is refused as a storage failure, not left hanging, and the next one is stored."""
    async with opened(postgres_url) as store:
        first, second = await _new_match(store), await _new_match(store)
        await store.append(_change(first, START, 1))
        # The appends' statements run on one connection, held between them.
        [(pid,)] = await store.db.statement("SELECT pg_backend_pid()")
        async with store.db.engine.connect() as admin:
            await admin.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        outcomes = await asyncio.gather(
            store.append(_change(first, START + 2, 3)), return_exceptions=True
        )
        assert isinstance(outcomes[0], StorageError)
        await store.append(_change(second, START, 7))
        row = await store.match(second)
        assert row is not None and row.version == START + 2 and row.state == {"marker": 7}


async def test_sqlite_waits_for_another_connections_write_lock_without_stalling(
    tmp_path: Path,
) -> None:
    async with opened(f"sqlite:///{tmp_path / 'locked.sqlite3'}") as store:
        match_id = await _new_match(store)
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0)
                ticks += 1

        ticker = asyncio.create_task(tick())
        async with store.db.engine.connect() as holder:
            await holder.exec_driver_sql("BEGIN IMMEDIATE")  # takes SQLite's write lock
            append = asyncio.create_task(store.append(_change(match_id, START, 1)))
            await asyncio.sleep(0.05)
            assert not append.done()  # it waits for the lock...
            assert ticks > 10  # ...without holding up the event loop
            await holder.exec_driver_sql("ROLLBACK")
        await asyncio.wait_for(append, 5)
        ticker.cancel()
        row = await store.match(match_id)
        assert row is not None and row.version == START + 2


async def test_the_batcher_answers_each_writer_with_its_own_outcome() -> None:
    seen: list[list[int]] = []

    async def write(items: Sequence[int]) -> list[WriteResult]:
        seen.append(list(items))
        await asyncio.sleep(0)
        return [None if item % 2 == 0 else ValueError(f"odd {item}") for item in items]

    batcher: Batcher[int] = Batcher(write, most=3)
    results = await asyncio.gather(*(batcher.submit(i) for i in range(7)), return_exceptions=True)
    assert [r if r is None else str(r) for r in results] == [
        None,
        "odd 1",
        None,
        "odd 3",
        None,
        "odd 5",
        None,
    ]
    assert sorted(len(batch) for batch in seen) == [1, 3, 3]  # in batches of at most 3
    await batcher.close()


async def test_a_failed_batch_fails_each_of_its_writers_and_later_ones_still_write() -> None:
    calls = 0

    async def write(items: Sequence[str]) -> list[WriteResult]:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise OSError("disk full")
        return [None for _ in items]

    batcher: Batcher[str] = Batcher(write)
    with pytest.raises(OSError, match="disk full"):
        await batcher.submit("a")
    await batcher.submit("b")
    await batcher.close()


async def test_closing_cancels_writers_still_waiting() -> None:
    release = asyncio.Event()

    async def write(items: Sequence[str]) -> list[WriteResult]:
        await release.wait()
        return [None for _ in items]

    batcher: Batcher[str] = Batcher(write)
    waiting = [asyncio.create_task(batcher.submit(name)) for name in "abc"]
    await asyncio.sleep(0.01)
    await batcher.close()
    results = await asyncio.gather(*waiting, return_exceptions=True)
    assert all(isinstance(result, asyncio.CancelledError) for result in results)


async def test_stopping_while_an_appends_commit_waits_for_the_commit_thread_ends_and_stores_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server's stop cancels the append batch's task. When that batch's commit is still
    queued for the commit thread, it never runs: the append is not stored, its writer hears
    it was cancelled, and the stop ends. (It once did not: the commit's future raised the
    thread pool's own CancelledError, an ordinary Exception, which the batch took for a failed
    write and went on waiting for the next one; the server's stop waited for it for ever.)"""
    async with opened(f"sqlite:///{tmp_path / 'stop.sqlite3'}") as store:
        match_id = await _new_match(store)
        committer = store.db._committer
        busy = threading.Event()
        committer.submit(busy.wait)  # the commit thread is busy with something else
        queued = asyncio.Event()
        submit = committer.submit

        def queue(work: Callable[..., Any], /, *args: Any) -> Any:
            queued.set()
            return submit(work, *args)

        monkeypatch.setattr(committer, "submit", queue)
        append = asyncio.create_task(store.append(_change(match_id, START, 1)))
        await queued.wait()  # its commit waits behind the busy thread
        closing = asyncio.create_task(store.close())  # what the server's stop does
        ended, _ = await asyncio.wait({closing}, timeout=10)
        busy.set()
        assert closing in ended, "the stop still waits for the append batch after 10 s"
        with pytest.raises(asyncio.CancelledError):
            await append
        row = await store.match(match_id)
        assert row is not None and row.version == START


async def test_a_close_that_is_itself_cancelled_stays_cancelled() -> None:
    """Whoever closes a batcher and is cancelled meanwhile (a stop given up after its
    timeout) hears of it, and the writers still waiting are told all the same."""
    writing, finishing = asyncio.Event(), asyncio.Event()

    async def write(items: Sequence[str]) -> list[WriteResult]:
        writing.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            await finishing.wait()  # as a commit that had started is waited for
            raise
        return [None for _ in items]

    batcher: Batcher[str] = Batcher(write)
    writer = asyncio.create_task(batcher.submit("a"))
    await writing.wait()
    closing = asyncio.create_task(batcher.close())
    await asyncio.sleep(0)  # the close is now waiting for the batch
    closing.cancel()
    finishing.set()
    with pytest.raises(asyncio.CancelledError):
        await closing
    with pytest.raises(asyncio.CancelledError):
        await writer
