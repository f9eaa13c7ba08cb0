"""Real PostgreSQL and Redis for the server tests, or a clear skip when they are not running.

Where the services should be is read from ``BIDAK_TEST_POSTGRES_URL`` (an admin connection,
default ``postgresql://postgres@127.0.0.1:5432/test``) and ``BIDAK_TEST_REDIS_URL`` (default
``redis://127.0.0.1:6379/0``). A test that needs one skips with the reason when it cannot be
reached, except under ``CI=true``, where a missing service fails the test: CI must not go green
by skipping them.

Each PostgreSQL test gets a schema of its own, so it never sees (or drops) anybody else's tables
in the shared database: a throwaway login role whose ``search_path`` is a schema it owns. The
server gets an ordinary URL (``postgresql://<role>@127.0.0.1:5432/test``) and runs its migrations
into that schema; the role and schema are dropped afterwards.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import secrets
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, NoReturn, TypeVar
from urllib.parse import urlsplit, urlunsplit

import pytest

POSTGRES_ADMIN_URL = os.environ.get(
    "BIDAK_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test"
)
REDIS_URL = os.environ.get("BIDAK_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
CONNECT_TIMEOUT = 3.0

T = TypeVar("T")


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def unavailable(service: str, why: object) -> NoReturn:
    """Skip the test for a missing service; under ``CI=true`` fail it instead."""
    reason = f"{service} is not reachable ({why})"
    if in_ci():
        pytest.fail(f"{reason}; CI=true requires it", pytrace=False)
    pytest.skip(f"{reason}; start it to run this test")


def run_sync(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a coroutine to completion on a loop of its own, even from inside a running loop."""
    with concurrent.futures.ThreadPoolExecutor(1) as worker:
        return worker.submit(asyncio.run, make()).result()


# -- PostgreSQL ---------------------------------------------------------------------------------


async def _admin(statements: list[str]) -> None:
    import asyncpg  # type: ignore[import-untyped]

    connection = await asyncpg.connect(POSTGRES_ADMIN_URL, timeout=CONNECT_TIMEOUT)
    try:
        for statement in statements:
            await connection.execute(statement)
    finally:
        await connection.close()


def _url_for_role(role: str) -> str:
    parts = urlsplit(POSTGRES_ADMIN_URL)
    host = parts.hostname or "127.0.0.1"
    netloc = f"{role}@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def new_postgres_schema() -> tuple[str, Callable[[], None]]:
    """A URL whose connections land in a fresh, empty schema, and the function that drops it."""
    role = f"bidak_test_{secrets.token_hex(6)}"
    failure: OSError | None = None
    try:
        run_sync(
            lambda: _admin(
                [
                    f"CREATE ROLE {role} LOGIN",
                    f"CREATE SCHEMA {role} AUTHORIZATION {role}",
                    f"ALTER ROLE {role} SET search_path = {role}",
                ]
            )
        )
    except OSError as error:  # refused, unreachable or timed out
        failure = error
    if failure is not None:
        unavailable(f"PostgreSQL at {POSTGRES_ADMIN_URL}", failure)

    def drop() -> None:
        run_sync(
            lambda: _admin(
                [
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    f" WHERE usename = '{role}'",
                    f"DROP SCHEMA IF EXISTS {role} CASCADE",
                    f"DROP ROLE IF EXISTS {role}",
                ]
            )
        )

    return _url_for_role(role), drop


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """``postgresql://...`` for a schema of this test's own (skips when PostgreSQL is absent)."""
    url, drop = new_postgres_schema()
    try:
        yield url
    finally:
        drop()


# -- Redis ----------------------------------------------------------------------------------------


async def _ping_redis() -> None:
    import redis.asyncio as redis

    client = redis.from_url(REDIS_URL, socket_connect_timeout=CONNECT_TIMEOUT)
    try:
        await client.ping()
    finally:
        await client.aclose()


@pytest.fixture
def redis_url() -> str:
    """``redis://...`` of a running Redis (skips when Redis is absent)."""
    import redis.exceptions

    failure: Exception | None = None
    try:
        run_sync(_ping_redis)
    except (OSError, redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as error:
        failure = error
    if failure is not None:
        unavailable(f"Redis at {REDIS_URL}", failure)
    return REDIS_URL


# -- both databases -------------------------------------------------------------------------------


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The test runs twice: on a SQLite file of its own, and on a PostgreSQL schema of its own."""
    if request.param == "postgresql":
        url: str = request.getfixturevalue("postgres_url")
        return url
    return f"sqlite:///{tmp_path / 'bidak.sqlite3'}"
