"""The database handle: an async SQLAlchemy engine, its sessions, and migrations at start."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import event, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

MIGRATIONS = Path(__file__).parent / "migrations"
MIGRATION_LOCK = 0x62696461  # "bida": the advisory lock key Bidak's migrations hold


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
    def __init__(self, url: str) -> None:
        self.url = async_url(url)
        self.is_sqlite = self.url.startswith("sqlite")
        options: dict[str, object] = {}
        if not self.is_sqlite:
            options = {"pool_size": 10, "max_overflow": 20, "pool_pre_ping": True}
        self.engine: AsyncEngine = create_async_engine(self.url, **options)
        if self.is_sqlite:
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)

    async def migrate(self) -> None:
        """Bring the schema up to date (Alembic ``upgrade head``).

        On PostgreSQL a transaction-level advisory lock makes servers that start together
        migrate one after the other; the later ones then find the schema up to date.
        """
        async with self.engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                await connection.execute(
                    text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK}
                )
            await connection.run_sync(_upgrade)

    @asynccontextmanager
    async def session(self) -> AsyncIterator[AsyncSession]:
        async with self.sessions() as session:
            yield session

    async def close(self) -> None:
        await self.engine.dispose()


def _upgrade(connection: Connection) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


def _sqlite_pragmas(dbapi_connection: object, _record: object) -> None:
    """WAL keeps readers off the writer's back; synchronous=FULL makes every commit durable."""
    cursor = dbapi_connection.cursor()  # type: ignore[attr-defined]
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()
