"""The database handle: an async SQLAlchemy engine, direct SQLite connections, and migrations."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import wait as wait_for_threads
from pathlib import Path
from typing import Any, TypeVar

import asyncpg
import orjson
from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, event, text
from sqlalchemy.engine import Connection, RootTransaction
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    create_async_engine,
)
from sqlalchemy.orm import Session
from sqlalchemy.pool import PoolProxiedConnection

from bidak.server.shared.settings import SqliteSync
from bidak.server.shared.store.errors import KeyTaken as KeyTaken
from bidak.server.shared.store.errors import StorageError as StorageError
from bidak.server.shared.store.errors import storage_errors
from bidak.server.shared.store.sqlite import (
    LEVEL_KEY,
    LOG_KEPT_BYTES,
    direct_engine,
    sqlite_pragmas,
    sync_level,
    while_busy,
)
from bidak.server.shared.store.turns import Turns

MIGRATIONS = Path(__file__).parent / "migrations"
MIGRATION_LOCK = 0x62696461  # "bida": the advisory lock key Bidak's migrations hold

_TRANSACTIONS_POOL = {"pool_size": 10, "max_overflow": 10}
_READS_POOL = {"pool_size": 5, "max_overflow": 5}
_STATEMENTS_POOL = {"pool_size": 1, "max_overflow": 1}
POSTGRES_CONNECTIONS = sum(
    sum(pool.values()) for pool in (_TRANSACTIONS_POOL, _READS_POOL, _STATEMENTS_POOL)
)
"""The most connections one process opens to PostgreSQL (32): 20 for transactions, 10 for reads
and 2 for the appends' statements (docs/operating.md; PostgreSQL's default ``max_connections``
is 100)."""

CHECKPOINT_SECONDS = 2.0
"""How often the write-ahead log is copied into a SQLite database."""

T = TypeVar("T")


def json_text(value: object) -> str:
    """A JSON column's stored text (orjson), as the engines write it."""
    return orjson.dumps(value).decode()


JSON_CODEC: dict[str, Any] = {"json_serializer": json_text, "json_deserializer": orjson.loads}
"""JSON columns (every match's state and events) read and written with orjson."""

log = logging.getLogger(__name__)

_CONNECTION_GONE = (asyncpg.PostgresConnectionError, asyncpg.OperatorInterventionError)
"""PostgreSQL's answers after which a connection is not used again (it is closing)."""


def async_url(url: str) -> str:
    """Pick the async driver for a plain URL: ``sqlite://`` -> aiosqlite, ``postgresql://`` ->
    asyncpg. A URL that already names a driver is kept."""
    for plain, driver in (
        ("sqlite://", "sqlite+aiosqlite://"),
        ("postgresql://", "postgresql+asyncpg://"),
        ("postgres://", "postgresql+asyncpg://"),
    ):
        if url.startswith(plain):
            return driver + url[len(plain) :]
    return url


class Database:
    """The database at ``url`` (SQLite or PostgreSQL): every transaction of the server is
    :meth:`write` or :meth:`read` (Core statements on a connection) or, for reads of whole
    rows, :meth:`rows` (an ORM session)."""

    def __init__(self, url: str, sqlite_sync: SqliteSync = "full") -> None:
        self.url = async_url(url)
        self.is_sqlite = self.url.startswith("sqlite")
        self.sqlite_sync: SqliteSync = sqlite_sync
        options: dict[str, object] = dict(JSON_CODEC)
        if not self.is_sqlite:
            options.update(_TRANSACTIONS_POOL, pool_pre_ping=True)
        self.engine: AsyncEngine = create_async_engine(self.url, **options)
        # Reads on PostgreSQL outside a transaction: under READ COMMITTED each statement sees
        # its own snapshot anyway, and a BEGIN and a ROLLBACK are two round trips a read. Their
        # pool has no ping either (another round trip a read): a read is tried once more on a
        # new connection when the one it had was gone (:meth:`read`).
        self._reads: AsyncEngine = (
            self.engine
            if self.is_sqlite
            else create_async_engine(
                self.url, **JSON_CODEC, **_READS_POOL, isolation_level="AUTOCOMMIT"
            )
        )
        if self.is_sqlite:
            event.listen(self.engine.sync_engine, "connect", sqlite_pragmas(sqlite_sync))
        self.direct = direct_engine(self.url, sqlite_sync, JSON_CODEC)
        self.reader = direct_engine(self.url, sqlite_sync, JSON_CODEC, reader=True)
        # PostgreSQL's hot statements (:meth:`statement`): one connection, held, no ping.
        self._statements: AsyncEngine | None = (
            None if self.is_sqlite else create_async_engine(self.url, **_STATEMENTS_POOL)
        )
        self._held: tuple[AsyncConnection, PoolProxiedConnection] | None = None
        self._statement_turn = asyncio.Lock()
        self._committer = ThreadPoolExecutor(1, thread_name_prefix="bidak-commit")
        self._checkpoints: asyncio.Task[None] | None = None
        self._writer = Turns()  # the direct engine has one connection: one writer
        self._writing: Connection | None = None  # that connection, held between writes
        self._log_restarts = False  # the next commit starts the log over (:meth:`checkpoint`)

    async def write(
        self, work: Callable[[Connection], T], *, urgent: bool = False, synced: bool = True
    ) -> T:
        """Run ``work`` in one transaction and commit; returns what it returned. If ``work``
        raises, the transaction is rolled back and the exception goes to the caller.

        For a SQLite file the statements run right here, on the event loop's thread, through a
        connection of its own; only the commit, which waits for the disk, runs on a thread. That
        connection never sleeps in SQLite's busy handler: if another connection holds the write
        lock, the transaction is rolled back and ``work`` runs again after an asynchronous pause (up
        to :data:`LOCK_WAIT` seconds in all), so ``work`` may run more than once and must have no
        effect outside the transaction. Writes take turns on that connection, ``urgent`` ones (the
        game's moves) first (:mod:`bidak.server.shared.store.turns`). ``synced=False`` marks a
        commit that may skip the disk sync when the file's setting is ``moves`` (a move of a
        match under way, :func:`sync_level`). Other databases run ``work`` through the async
        engine. Every write of the server comes here, so a SQLite file has one
        writer in the process. Why: ``docs/performance.md``, "SQLite writes".

        The database's failures are raised as :class:`StorageError`.
        """
        with storage_errors:
            if self.direct is None:
                async with self.engine.begin() as connection:
                    return await connection.run_sync(work)
            await self._writer.acquire(urgent)
            try:
                return await self._write_direct(self.direct, work, synced)
            finally:
                self._writer.release()

    async def write_keyed(self, work: Callable[[Connection], T], *, urgent: bool = False) -> T:
        """:meth:`write`, for a transaction that stores a unique idempotency key: when another
        transaction stored a row with the same unique value first, this one is rolled back
        whole and :class:`KeyTaken` is raised. The caller then answers with what the first one
        stored (reading it, or running ``work`` again, which finds it)."""
        try:
            return await self.write(work, urgent=urgent)
        except IntegrityError as taken:
            raise KeyTaken(str(taken.orig)) from taken

    async def _write_direct(
        self, direct: Engine, work: Callable[[Connection], T], synced: bool
    ) -> T:
        level = sync_level(self.sqlite_sync, synced)

        async def attempt() -> T:
            if self._writing is None:
                # Held between writes: checking a connection out of the pool and back cost a
                # write about as much CPU as the append's statements.
                self._writing = direct.connect()
            connection = self._writing
            try:
                if connection.info.get(LEVEL_KEY) != level:
                    # Outside a transaction (SQLite refuses it inside one), on the driver's
                    # connection so that SQLAlchemy begins none; the pooled connection keeps
                    # it, and remembers it, until the next write wants the other.
                    driver = connection.connection.driver_connection
                    assert driver is not None
                    driver.execute(f"PRAGMA synchronous={level}")
                    connection.info[LEVEL_KEY] = level
                transaction = connection.begin()
                try:
                    result = work(connection)
                except BaseException:
                    transaction.rollback()
                    raise
                await self._commit(transaction, level)
            except BaseException:
                self.drop_writer()  # in whatever state it is, the next write starts afresh
                raise
            return result

        return await while_busy(attempt)

    def drop_writer(self) -> None:
        """Hand the writer's held connection back to its pool (which rolls back whatever it
        had begun); the next write takes it again. For a caller that wants the direct
        engine's one connection for itself (``scripts/measure_appends.py``)."""
        held, self._writing = self._writing, None
        if held is not None:
            held.close()

    async def _commit(self, transaction: RootTransaction, level: str) -> None:
        """Commit on the committing thread, the loop going on meanwhile, when the commit waits
        for the disk (``FULL``); at ``NORMAL`` a commit only writes to the log in the
        operating system's cache, quicker here than the hand-over to a thread and back."""
        if level == "NORMAL" and not self._log_restarts:
            transaction.commit()
            return
        # A commit after a checkpoint that copied the whole log starts the log over, and that
        # syncs the log's header even with ``normal`` (3-5 ms measured, 19-20 ms loop stalls
        # seen under load): made on the thread too.
        self._log_restarts = False
        done = self._committer.submit(transaction.commit)
        try:
            await asyncio.wrap_future(done)
        except asyncio.CancelledError:
            # The connection must not be handed back mid-commit: a commit that started is
            # waited for, whatever its outcome; one still queued is withdrawn and never runs.
            # Either way the caller stays cancelled: ``done.result()`` would raise the thread
            # pool's own CancelledError there, an ordinary Exception that callers took for a
            # failed write, and the cancellation was lost (a server's stop then waited for the
            # append batch for ever).
            if not done.cancel():
                wait_for_threads([done])
            raise

    async def statement(self, sql: str, *args: object) -> list[Any]:
        """PostgreSQL only: run the one statement ``sql`` through the driver itself (asyncpg,
        ``$1``-style parameters, prepared once per connection) outside a transaction, and
        return its rows. One statement is atomic by itself, so a statement that writes several
        tables (a ``WITH`` of ``UPDATE`` and ``INSERT``) commits or fails whole, in one round
        trip: no ping, no ``BEGIN``, no ``COMMIT``, none of SQLAlchemy's per-statement work.

        The statements take turns on one connection, held between them (checking one out of
        the pool and back cost as much of the process's CPU as the statement itself). A
        unique key taken is raised as ``IntegrityError``, other failures as
        :class:`StorageError`; a connection that failed is not used again. Why:
        ``docs/performance.md``, "The PostgreSQL append"."""
        assert self._statements is not None, "PostgreSQL only"
        with storage_errors:
            async with self._statement_turn:
                if self._held is None:
                    connection = await self._statements.connect()
                    self._held = (connection, await connection.get_raw_connection())
                connection, pooled = self._held
                driver = pooled.driver_connection
                assert driver is not None
                try:
                    rows: list[Any] = await driver.fetch(sql, *args)
                except asyncpg.UniqueViolationError as taken:
                    raise IntegrityError(sql, None, taken) from taken
                except asyncpg.PostgresError as failed:  # the server refused the statement
                    if isinstance(failed, _CONNECTION_GONE):
                        await self._drop_held()
                    raise StorageError(f"{type(failed).__name__}: {failed}") from failed
                except Exception as failed:  # the connection's state is unknown
                    await self._drop_held()
                    raise StorageError(f"{type(failed).__name__}: {failed}") from failed
                except BaseException:  # cancelled mid-statement: the same
                    await self._drop_held()
                    raise
                return rows

    async def _drop_held(self) -> None:
        """Never use the held statement connection again (it failed, or the database is
        closing)."""
        held, self._held = self._held, None
        if held is not None:
            connection, pooled = held
            pooled.invalidate()
            with contextlib.suppress(Exception):
                await connection.close()

    async def migrate(self, revision: str = "head") -> None:
        """Bring the schema up to date (Alembic ``upgrade head``; tests name an older
        ``revision`` to store what an older version stored).

        On PostgreSQL a transaction-level advisory lock makes servers that start together
        migrate one after the other; the later ones then find the schema up to date.
        """
        async with self.engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                await connection.execute(
                    text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK}
                )
            await connection.run_sync(_upgrade, revision)

    async def ping(self) -> None:
        """Run ``SELECT 1`` on a connection of the pool: raises what the driver raises when
        the database cannot be reached or refuses the login."""
        async with self.engine.connect() as connection:
            await connection.execute(text("SELECT 1"))

    async def read(self, work: Callable[[Connection], T]) -> T:
        """Run ``work`` (Core statements on a connection) for reading, outside any write; the
        database's failures are raised as :class:`StorageError`.

        For a SQLite file ``work`` runs right here on the event loop's thread, on a read-only
        connection of its own: a read of a few rows takes tens of microseconds there, and each
        of its statements would otherwise wait twice for the driver's thread and the GIL
        (200 players pressing Quick match at once queued for seconds on those hand-offs;
        ``docs/performance.md``). In WAL mode a reader never waits for the writer; the rare
        ``SQLITE_BUSY`` (the log being reset) is tried again after an asynchronous pause.

        On PostgreSQL ``work`` runs outside a transaction (autocommit): the database's default
        isolation, READ COMMITTED, gives each statement a snapshot of its own in a transaction
        too, so nothing is lost, and the BEGIN and ROLLBACK round trips are saved. A read
        that needs one snapshot for several statements goes through :meth:`write`. Its pool
        does not ping a connection before each use (a round trip a read): a read on a
        connection that turns out to be gone runs once more on a new one (``work`` only reads,
        so running it twice changes nothing)."""
        with storage_errors:
            if self.reader is not None:
                return await self._read_direct(self.reader, work)
            try:
                async with self._reads.connect() as connection:
                    return await connection.run_sync(work)
            except DBAPIError as failed:
                if not failed.connection_invalidated:
                    raise
                # The connection was gone (PostgreSQL restarted, an operator ended it): its
                # pool drops every connection as old, and the read goes to a new one.
                async with self._reads.connect() as connection:
                    return await connection.run_sync(work)

    async def rows(self, work: Callable[[Session], T]) -> T:
        """Run ``work`` on an ORM session for reading whole rows (its objects stay usable
        afterwards), as :meth:`read` runs Core statements; writes go through :meth:`write`."""

        def in_session(connection: Connection) -> T:
            with Session(bind=connection, expire_on_commit=False) as session:
                return work(session)

        return await self.read(in_session)

    async def _read_direct(self, reader: Engine, work: Callable[[Connection], T]) -> T:
        async def attempt() -> T:
            with reader.connect() as connection:
                return work(connection)

        return await while_busy(attempt)

    def start_checkpoints(self, every: float = CHECKPOINT_SECONDS) -> None:
        """For SQLite, copy the write-ahead log into the database now and then, off the loop,
        until :meth:`close`.

        The direct connection does not checkpoint by itself (a checkpoint copies pages and
        syncs the file, which would stall the event loop); this task does it through the
        async engine, whose driver runs it on a thread of its own.
        """
        if self.direct is not None and self._checkpoints is None:
            self._checkpoints = asyncio.create_task(self._checkpoint_forever(every))

    async def _checkpoint_forever(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                await self.checkpoint()
            except Exception:  # pragma: no cover - the next one tries again
                log.warning("WAL checkpoint failed", exc_info=True)

    async def checkpoint(self) -> None:
        """Copy the write-ahead log into the SQLite file now (``PASSIVE``: without waiting for
        readers or the writer); when all of it was copied, the next commit starts the log over
        (:meth:`_commit`).

        Under a load that never stops a commit lands during every copy, and a copy reports the
        log as it was when it began: all of it copied, while the log has grown since. The log
        was then never started over, and grew by 10 MB a second at 2,000 matches, 1.27 GB
        after two and a half minutes over a file of 18 MB (``docs/performance.md``, "The log
        that never started over"). So once the log is longer than :data:`LOG_KEPT_BYTES`, the
        rest (what was committed during the first copy) is copied while this holds the
        writer's turn, and the next commit starts the log over. That copy syncs the file, and
        the moves wait for it (12 ms at the median, 86 ms at worst, measured), which is why it
        is made only for a long log: at a load that leaves gaps between commits the first
        copy takes all and the log starts over without it."""
        whole, length = await self._copy_log()
        self._log_restarts = whole  # (a guess under load: see above)
        if self.direct is None or length < LOG_KEPT_BYTES:
            return
        await self._writer.acquire()
        try:
            self._log_restarts, _ = await self._copy_log()
        finally:
            self._writer.release()

    async def _copy_log(self) -> tuple[bool, int]:
        """One ``PASSIVE`` checkpoint: whether it copied the whole log as it was when it
        began, and the log's length then in bytes."""
        async with self.engine.connect() as connection:
            found = await connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            busy, frames, copied = tuple(found.one())
            page = (await connection.exec_driver_sql("PRAGMA page_size")).scalar_one()
        return bool(not busy and frames == copied), int(frames) * int(page)

    async def close(self) -> None:
        """Stop the checkpoints, wait for a commit in flight and close every connection."""
        task, self._checkpoints = self._checkpoints, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._committer.shutdown(wait=True)
        self.drop_writer()
        for direct in (self.direct, self.reader):
            if direct is not None:
                direct.dispose()
        await self._drop_held()
        for extra in (self._statements, self._reads):
            if extra is not None and extra is not self.engine:
                await extra.dispose()
        await self.engine.dispose()


def _upgrade(connection: Connection, revision: str = "head") -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, revision)
