"""SQLite's side of the store: how a connection to a SQLite file is set up, the ``synchronous``
level of a commit, and the retries of a direct connection while the file is busy. The
:class:`bidak.server.shared.store.db.Database` uses them; nothing here holds state."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from sqlalchemy import Engine, create_engine, event, make_url
from sqlalchemy.exc import OperationalError

from bidak.server.shared.settings import SqliteSync

LOCK_WAIT = 5.0
"""Seconds a direct SQLite write waits, in all, for another connection's write lock."""
LOG_KEPT_BYTES = 256 * 1024 * 1024
"""A SQLite write-ahead log longer than this is started over at the next checkpoint whatever
the load (:meth:`bidak.server.shared.store.db.Database.checkpoint`), and cut back to this size
when it is."""

T = TypeVar("T")


LEVEL_KEY = "bidak_synchronous"
"""Where a direct connection's ``info`` keeps the ``synchronous`` level it is at."""


def sync_level(sync: SqliteSync, synced: bool) -> str:
    """SQLite's ``synchronous`` for a commit: ``FULL`` syncs the write-ahead log at the commit,
    ``NORMAL`` leaves it to the next checkpoint or the next ``FULL`` commit (the log is written
    in order, so that sync takes every earlier commit with it). ``full`` syncs every commit,
    ``normal`` none, ``moves`` all but those a caller marks as not ``synced``: the moves of a
    match under way (a move lost to a power cut is played again with the same dice, which
    come from the match's seed and the count of dice drawn, stored with it); a match's end,
    ratings, coins and sign-in tokens are always synced."""
    if sync == "normal" or (sync == "moves" and not synced):
        return "NORMAL"
    return "FULL"


async def while_busy(attempt: Callable[[], Awaitable[T]]) -> T:
    """Run ``attempt`` (a transaction on a direct SQLite connection, which never sleeps in
    SQLite's busy handler) again after an asynchronous pause while the file is busy, up to
    :data:`LOCK_WAIT` seconds in all."""
    pause, give_up = 0.001, time.monotonic() + LOCK_WAIT
    while True:
        try:
            return await attempt()
        except OperationalError as failed:
            busy = getattr(failed.orig, "sqlite_errorcode", None) == sqlite3.SQLITE_BUSY
            if not busy or time.monotonic() > give_up:
                raise
        await asyncio.sleep(pause)
        pause = min(2 * pause, 0.02)


def open_sqlite_file(path: str) -> None:
    """Open (or create) the SQLite file at ``path`` and run one statement on it, as the server
    will; raises :class:`sqlite3.Error`. (The standard library's driver: a failed aiosqlite
    connect leaves its thread behind.)"""
    connection = sqlite3.connect(path)
    try:
        connection.execute("SELECT 1")
    finally:
        connection.close()


def direct_engine(
    url: str, sync: SqliteSync, codec: dict[str, Any], reader: bool = False
) -> Engine | None:
    """A synchronous engine on the same SQLite file (None for other databases and for an
    in-memory SQLite, which another connection would not see); a ``reader``'s connection
    refuses to write."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    engine = create_engine(
        parsed.set(drivername="sqlite"),
        pool_size=1,
        max_overflow=0,
        **codec,
        # Used by one task at a time, but its commits are made on the committing thread.
        connect_args={"check_same_thread": False},
    )
    event.listen(engine, "connect", _direct_pragmas(sync, reader))
    return engine


def _direct_pragmas(sync: SqliteSync, reader: bool) -> Callable[[Any, object], None]:
    """The settings of a direct connection: never waiting in SQLite's busy handler, never
    checkpointing by itself, and a reader's refusing to write."""
    common = sqlite_pragmas(sync)

    def set_up(dbapi_connection: Any, record: Any) -> None:
        common(dbapi_connection, record)
        record.info[LEVEL_KEY] = sync_level(sync, synced=True)
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA busy_timeout=0")  # never sleep on the event loop's thread
        cursor.execute("PRAGMA wal_autocheckpoint=0")  # see Database.start_checkpoints (db.py)
        if reader:
            cursor.execute("PRAGMA query_only=1")
        cursor.close()

    return set_up


def sqlite_pragmas(sync: SqliteSync) -> Callable[[Any, object], None]:
    """WAL keeps readers off the writer's back. ``synchronous=FULL`` syncs the log to the disk
    at every commit, so a commit survives a power cut; ``NORMAL`` syncs it only at checkpoints,
    so a commit survives the process's crash and the last ones may be lost, whole, in a power
    cut or a crash of the machine (the file stays consistent). Every connection starts at the
    level of an ordinary commit (:func:`sync_level`); the writer changes it for a commit that
    may skip the sync (``moves``)."""
    level = sync_level(sync, synced=True)

    def set_up(dbapi_connection: Any, _record: object) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={level}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=5000")
        # A log started over is cut back to this size (it is reused, not cut, otherwise).
        cursor.execute(f"PRAGMA journal_size_limit={LOG_KEPT_BYTES}")
        cursor.close()

    return set_up
