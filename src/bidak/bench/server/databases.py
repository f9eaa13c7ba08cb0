"""A fresh PostgreSQL database for each run of ``bidak bench server --database-url``.

A run leaves its matches unfinished in the database (the window closes in the middle of them),
each with a move clock. A later run on the same database found them: its server's sweep took
over the clocks of the stopped server's matches once they ran out and played timeouts for
hundreds of abandoned matches inside the measured window (issue 41, a sweep's later counts).
So each run gets a database of its own, made beside the one named and dropped after it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Iterator
from itertools import count

from sqlalchemy.engine import URL, make_url

_made = count()


def is_postgres(url: str) -> bool:
    return make_url(url).get_backend_name() == "postgresql"


@contextlib.contextmanager
def fresh_database(url: str) -> Iterator[str]:
    """The URL of a new, empty database on the server of ``url`` (whose database must exist
    and let its user create databases); dropped, whatever is still connected, on the way out."""
    given = make_url(url)
    name = f"{given.database or 'bidak'}_run_{os.getpid()}_{next(_made)}"
    asyncio.run(_admin(given, f'CREATE DATABASE "{name}"'))
    try:
        yield given.set(database=name).render_as_string(hide_password=False)
    finally:
        asyncio.run(_admin(given, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


async def _admin(given: URL, statement: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(
        host=given.host,
        port=given.port,
        user=given.username,
        password=given.password,
        database=given.database,
    )
    try:
        await connection.execute(statement)
    finally:
        await connection.close()
