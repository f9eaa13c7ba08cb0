"""``bidak bench arena``: how soon a player of a big arena is paired again after a match ends.

One server in this process (its own database, the system clock, the tournaments' loop as it
runs in production: a step every second), an arena of ``players`` guests with spread ratings.
Matches end in batches (the weaker player gives up the match, as with the Resign button), a
batch every ``gap`` seconds; for each player whose match ended, the time until their ``paired``
message arrives on their bus channel is one sample. Also timed: each tick of the loop (the
transaction that records the ended matches and pairs the free, and making the new rooms).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import update
from sqlalchemy.engine import Connection

from bidak.match import ForfeitMatch
from bidak.server.app import create_app
from bidak.server.app.services import Services
from bidak.server.shared.bus import player_channel
from bidak.server.shared.settings import Settings
from bidak.server.shared.store.models import PlayerRow


@dataclass
class ArenaResult:
    players: int
    ended: int = 0
    """Matches ended by the bench."""
    waits: list[float] = field(default_factory=list)
    """Seconds from a match's end to the next pairing, per player paired again."""
    unpaired: int = 0
    """Players whose match ended and who were not paired again by the end of the run (the
    rule forbids their only free opponents: their last ones)."""
    ticks: list[float] = field(default_factory=list)
    """Seconds each tick of the tournaments' loop took."""


def quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run_arena(
    players: int = 200,
    matches: int = 300,
    batch: int = 10,
    gap: float = 1.0,
    database_url: str | None = None,
    seed: int = 27,
) -> ArenaResult:
    """Run the bench; ``matches`` ended in all, ``batch`` at a time."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="bidak-arena-") as folder:
        url = database_url or f"sqlite:///{Path(folder) / 'arena.sqlite3'}"
        settings = Settings(
            database_url=url, environment="test", arena_every_minutes=0, gc_freeze_seconds=None
        )
        app = create_app(settings)
        async with app.router.lifespan_context(app):
            services: Services = app.state.services
            return await _measure(services, players, matches, batch, gap, rng)


async def _measure(
    services: Services, players: int, matches: int, batch: int, gap: float, rng: random.Random
) -> ArenaResult:
    result = ArenaResult(players)
    tournaments = services.tournaments
    real_tick = tournaments.tick

    async def timed_tick() -> int:
        began = time.perf_counter()
        try:
            return await real_tick()
        finally:
            result.ticks.append(time.perf_counter() - began)

    tournaments.tick = timed_tick  # type: ignore[method-assign]
    ids: list[str] = []
    strength: dict[str, float] = {}
    for _ in range(players):
        row, _token = await services.store.create_guest()  # a generated name: never taken
        ids.append(row.id)
        strength[row.id] = rng.uniform(1200, 2000)
        change = update(PlayerRow).where(PlayerRow.id == row.id).values(rating=strength[row.id])
        await services.db.write(partial_execute(change))
    arena = await tournaments.create_arena("Bench", services.clock.now(), 60, 1, 90)
    assert arena is not None
    in_play: dict[str, list[str]] = {}
    """Each room in play: the players told they were paired there so far."""
    ended_at: dict[str, float] = {}

    async def listen(player: str) -> None:
        subscription = await services.bus.subscribe(player_channel(player))
        try:
            async for message in subscription:
                if message.get("type") != "tournament" or message.get("state") != "paired":
                    continue
                room = message["room"]
                in_play.setdefault(room, []).append(player)
                since = ended_at.pop(player, None)
                if since is not None:
                    result.waits.append(time.perf_counter() - since)
        finally:
            await subscription.close()

    listeners = [asyncio.create_task(listen(p)) for p in ids]
    await asyncio.sleep(0.1)
    for player in ids:
        await tournaments.join(arena, player, strength[player])
    try:
        while sum(len(seats) == 2 for seats in in_play.values()) < players // 2:
            await asyncio.sleep(0.05)  # the arena's start: everybody paired at once
        while result.ended < matches:
            ready = [room for room, seats in in_play.items() if len(seats) == 2]
            if not ready:
                await asyncio.sleep(0.05)
                continue
            for room in rng.sample(ready, min(batch, len(ready), matches - result.ended)):
                a, b = in_play.pop(room)
                weaker = a if strength[a] < strength[b] else b
                for seated in (a, b):  # both come to the table: the match starts (its grace)
                    await services.rooms.arrive(room, seated)
                await services.rooms.submit(room, weaker, ForfeitMatch, None)
                now = time.perf_counter()
                ended_at[a] = ended_at[b] = now
                result.ended += 1
            await asyncio.sleep(gap)
        quiet = 0
        while ended_at and quiet < 30:  # the last batches' pairings: until 3 s pass without any
            before = len(result.waits)
            await asyncio.sleep(0.1)
            quiet = quiet + 1 if len(result.waits) == before else 0
        result.unpaired = len(ended_at)
    finally:
        for task in listeners:
            task.cancel()
        for task in listeners:
            with contextlib.suppress(asyncio.CancelledError):
                await task
    return result


def partial_execute(statement: Any) -> Any:
    def run(connection: Connection) -> None:
        connection.execute(statement)

    return run
