"""Playing leaves no reference cycles behind: what an action, a broadcast, a connection's life,
a bot's decision and an HTTP request leave is freed by reference counting alone.

The server turns Python's automatic cyclic collection off
(:mod:`bidak.server.shared.collector`), so a cycle made on every action piles up until one
full collection walks them all while every table waits (issue 22: a cancelled move clock kept
its match's state in a cycle, 38 objects an action,
and full collections of up to 4.6 s). Here the players run in a process of their own
(:mod:`tests.server.crowd`), so only the server's garbage is counted.

On the code before issue 22 this found 28,766 unreachable objects after 324 intents (the move
clocks' cycles, and each WebSocket's HTTP protocol); after it, none after 458.

What runs on a timer is counted apart: its garbage grows with time, not with play, so the crowd
test saw it only when a slow machine stretched its run (the tournaments' tick, once a second,
left 10 objects a tick until its statement stopped building an IN of literals anew: 300 after
477 intents on a loaded machine, over that test's bound).

The crowd plays correspondence matches too since then: adding them found 50,430 unreachable
after 1,308 intents (every roll told its turn again, and the duplicate's ``IntegrityError`` left
its traceback in a cycle; the auto-roll lookup built an IN anew on every action). It plays on
PostgreSQL with Redis too: there 138,186 were found after 1,264 intents (each move's deadline
was stored again by the correspondence clock, a microsecond off, and the next move cancelled
that write inside SQLAlchemy's driver, whose frames then kept the CancelledError in a cycle
with the match's state). Since quick matches (with a rematch), challenges and practice hints
joined the crowd, a quick-match join's look-up of the queue (an ``in_`` built per call) showed
20-28 objects after 1,879-1,954 intents, none after the fix: under this test's bound, which
catches what an action makes, not what a match makes; it was read off the count. Rarer paths
are counted apart, each against a bound under one object a call: a guest's sign-in with every
capability's steps, and a call cancelled inside the database.
"""

from __future__ import annotations

import asyncio
import gc
import secrets
import sys
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection, create_engine, select, text

from bidak.server.app.steps import player_steps
from bidak.server.fairplay import queries as fairplay_queries
from bidak.server.notifications import queries as notification_queries
from bidak.server.shared.clocks import ManualClock
from bidak.server.shared.store.db import Database
from bidak.server.shared.store.models import Base, PlayerRow
from bidak.server.shared.store.player_steps import GuestMerge
from bidak.server.shared.store.rows import insert_rows
from tests.server.backends import postgres_url, redis_url
from tests.server.harness import running_server, server_settings

__all__ = ["postgres_url", "redis_url"]

pytestmark = pytest.mark.anyio

PRACTICE = 4
FRIEND = 4
"""1-point matches played at once: against a bot, and between two players on a move clock."""

PER_ACTION = 0.1
"""Unreachable objects allowed per intent. A cycle is at least a few objects (the smallest,
an object and its bound method, is three), so any cycle made on every tenth action or more
often goes over; the old clock's was 38 an action."""

ONCE = 200
"""Allowed whatever the count of actions: what a first use of some path caches in a cycle."""


@pytest.fixture
def anyio_backend() -> tuple[str, dict[str, Any]]:
    # ``bidak serve`` runs on uvloop (uvicorn's default when it is installed). asyncio's own
    # selector transport holds a bound method of itself, a cycle per socket that is not ours.
    return ("asyncio", {"use_uvloop": True})


@pytest.fixture
def collector_off() -> Iterator[None]:
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was:
            gc.enable()


async def _crowd(base: str, practice: int = PRACTICE, friend: int = FRIEND) -> int:
    """Play the matches from another process; how many intents its players sent."""
    player = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.server.crowd",
        base,
        str(practice),
        str(friend),
        stdout=asyncio.subprocess.PIPE,
    )
    out, _ = await player.communicate()
    assert player.returncode == 0
    return int(out)


def _garbage() -> tuple[int, str]:
    """A full collection: how many unreachable objects it found, and the commonest types."""
    gc.set_debug(gc.DEBUG_SAVEALL)
    found = gc.collect()
    gc.set_debug(0)
    kinds = Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.garbage)
    gc.garbage.clear()
    gc.collect()  # kept, not freed, by DEBUG_SAVEALL: now free them
    return found, ", ".join(f"{count} {kind}" for kind, count in kinds.most_common(12))


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> dict[str, str]:
    """A SQLite file and the in-process bus, or PostgreSQL and Redis (a site of its own)."""
    if request.param == "sqlite":
        return {}
    return {
        "database_url": request.getfixturevalue("postgres_url"),
        "bus_url": request.getfixturevalue("redis_url"),
        "redis_prefix": f"bidak-test-{secrets.token_hex(6)}:",
    }


@pytest.mark.usefixtures("collector_off")
async def test_practice_and_friend_matches_leave_no_reference_cycles(
    tmp_path: Path, backend: dict[str, str]
) -> None:
    # The server's own collector policy off: the test collects, and nothing is frozen.
    # Every player of the crowd comes from one address: more new guests than a minute allows.
    settings = server_settings(
        tmp_path, gc_freeze_seconds=None, guests_per_minute=1000.0, **backend
    )
    async with running_server(settings) as running:
        await _crowd(running.base, 1, 1)  # a first match of each: caches and imports fill up
        _garbage()
        intents = await _crowd(running.base)
        found, kinds = _garbage()
    assert intents > 200
    assert found <= ONCE + PER_ACTION * intents, f"{found} unreachable after {intents}: {kinds}"


PASSES = 30
"""Rounds of every periodic pass; one object left a pass would show as 30."""


@pytest.mark.usefixtures("collector_off")
async def test_the_periodic_passes_leave_no_reference_cycles(tmp_path: Path) -> None:
    # A tournament not over, so the tick steps one; the clock stands still between passes, so
    # the loops' own timers never fire and only the passes called here run.
    clock = ManualClock()
    settings = server_settings(tmp_path, gc_freeze_seconds=None)
    async with running_server(settings, clock) as running:
        services = running.services
        await services.tournaments.create_arena("Cycles", clock.now(), 30, 1, 90)

        async def every_pass() -> None:
            assert await services.tournaments.tick() == 1
            await services.rooms.sweep()
            await services.quick.pair_now()
            await services.push.sweep()
            await services.reviewer.review_pending()
            if services.mailer is not None:
                await services.mailer.sweep()

        await every_pass()  # first uses fill their caches
        _garbage()
        for _ in range(PASSES):
            await every_pass()
        found, kinds = _garbage()
    assert found < PASSES, f"{found} unreachable after {PASSES} rounds: {kinds}"


@pytest.mark.usefixtures("collector_off")
def test_a_sign_in_and_the_rare_statements_leave_no_reference_cycles() -> None:
    """A guest signing in runs every capability's merge, export, deletion and names steps; a
    moderator's queue names players; a player marks chosen notifications read. Rarer than an
    action, but each built its statement per call (an ``alias()``, ``~exists()``, an ``in_`` of
    a list): about 860 objects a sign-in, 10 a click, before they were built once."""
    engine = create_engine("sqlite://")
    Base.metadata.create_all(engine)
    steps = player_steps()
    at = datetime(2026, 12, 7, tzinfo=UTC)
    with engine.begin() as connection:
        insert_rows(
            connection,
            [
                PlayerRow(id=f"{who}-{n}", name=f"{who} {n}", created_at=at)
                for n in range(PASSES + 1)
                for who in ("guest", "account")
            ],
        )
        guests = connection.execute(select(PlayerRow.__table__)).all()

        def every_step(n: int) -> None:
            guest = next(row for row in guests if row.id == f"guest-{n}")
            steps.merge(connection, GuestMerge(guest, f"account-{n}", at))
            steps.export(connection, f"account-{n}")
            steps.replaced_names(connection, f"account-{n}")
            steps.forget(connection, f"guest-{n}", at)
            notification_queries.mark_read(connection, f"account-{n}", [1, 2], room="abc")
            notification_queries.mark_read(connection, f"account-{n}", [3])
            fairplay_queries.names_of(connection, [f"account-{n}", f"guest-{n}"])

        every_step(0)  # first uses fill their caches
        _garbage()
        for n in range(1, PASSES + 1):
            every_step(n)
        found, kinds = _garbage()
    assert found < PASSES, f"{found} unreachable after {PASSES} sign-ins: {kinds}"


class _Held:
    """What a caller's frame holds while it waits for the database (a match's state)."""


@pytest.mark.usefixtures("collector_off")
async def test_a_call_cancelled_inside_the_database_leaves_its_frames_free(
    postgres_url: str,
) -> None:
    """A task cancelled while it waits for PostgreSQL (a socket's reader closed mid-read)
    went on cancelled with a traceback whose frames SQLAlchemy keeps the error in: 164 objects
    a cancelled read or write, the caller's frame and what it held among them. What a write's
    cancellation still leaves is asyncpg's own dropped connection (about 64 objects, none of
    them a frame)."""
    db = Database(postgres_url)

    async def wait(how: str, started: asyncio.Event) -> _Held:
        held = _Held()

        def work(connection: Connection) -> None:
            started.set()
            connection.execute(text("SELECT pg_sleep(2)"))

        await (db.read(work) if how == "read" else db.write(work))
        return held

    async def cancel_one(how: str) -> None:
        started = asyncio.Event()
        task = asyncio.create_task(wait(how, started))
        await started.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    try:
        for how in ("read", "write"):
            await cancel_one(how)  # first uses: the pool's connections, the statement's cache
            _garbage()
            for _ in range(PASSES // 3):
                await cancel_one(how)
            gc.set_debug(gc.DEBUG_SAVEALL)
            gc.collect()
            gc.set_debug(0)
            kinds = Counter(type(o).__name__ for o in gc.garbage)
            gc.garbage.clear()
            gc.collect()
            assert kinds["frame"] == 0 and kinds["_Held"] == 0, (how, kinds.most_common(8))
    finally:
        await db.close()
