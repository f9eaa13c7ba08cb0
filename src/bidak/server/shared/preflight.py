"""Before serving: can the server reach its database and its bus? One line per problem.

Run by ``bidak serve`` so that an unreachable PostgreSQL or Redis stops it at once with the
address and the reason, not with a traceback from the middle of the app's start (and, for the
bus, not with a server that starts and then cannot tell anyone about a move).
"""

from __future__ import annotations

import asyncio
import sqlite3

from sqlalchemy.engine import make_url

from bidak.server.shared.settings import Settings
from bidak.server.shared.store.db import Database
from bidak.server.shared.store.sqlite import open_sqlite_file

TIMEOUT = 10.0
"""Seconds each service has to answer."""


def _where(url: str) -> str:
    """The address of ``url`` without its password."""
    return make_url(url).render_as_string(hide_password=True) if "://" in url else url


def _reason(error: BaseException) -> str:
    if isinstance(error, TimeoutError):
        return f"no answer in {TIMEOUT:.0f} s"
    cause = getattr(error, "orig", None) or error
    name = type(cause).__name__
    first = (str(cause).strip().splitlines() or [name])[0]
    return first if name in ("Error", "Exception") else f"{name}: {first}"


async def _database(url: str) -> str | None:
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        try:
            open_sqlite_file(parsed.database or ":memory:")
        except sqlite3.Error as failed:
            return f"cannot open the database {_where(url)}: {_reason(failed)}"
        return None
    database = Database(url)
    try:
        async with asyncio.timeout(TIMEOUT):
            await database.ping()
    except Exception as failed:
        return f"cannot open the database {_where(url)}: {_reason(failed)}"
    finally:
        await database.close()
    return None


async def _bus(url: str) -> str | None:
    if url.startswith("memory://"):
        return None
    import redis.asyncio as redis

    client = redis.from_url(url)
    try:
        async with asyncio.timeout(TIMEOUT):
            await client.ping()
    except Exception as failed:
        return f"cannot reach the bus {_where(url)}: {_reason(failed)}"
    finally:
        await client.aclose()
    return None


async def problems(settings: Settings) -> list[str]:
    """What keeps the server from reaching its database or bus (empty: nothing)."""
    found = await asyncio.gather(_database(settings.database_url), _bus(settings.bus_url))
    return [problem for problem in found if problem is not None]
