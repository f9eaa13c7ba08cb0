"""Two server instances on one PostgreSQL database and one Redis bus run an arena of 16 players
and a knockout of 8 to the end; the instance holding the tournaments' leases dies midway, right
after planning matches and before making their rooms. The other takes the leases over once they
run out, makes the rooms the dead one planned, and finishes both tournaments: every match is
counted once, none is made twice or lost, and the winners are the ones the results make.

Scripted players: each match is won by the stronger of the two (a higher rating), who plays
on, the weaker giving up the match (the client's Resign button). Both instances share an
injected clock; the test steps them by hand (their own loops are stopped), as their loops would.
"""

from __future__ import annotations

import contextlib
import secrets
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select, update
from sqlalchemy.engine import Connection

from bidak.match import ForfeitMatch
from bidak.server.play.tables import RatedMatchRow, RoomRow, UnratedMatchRow
from bidak.server.shared.clocks import ManualClock
from bidak.server.shared.store.models import PlayerRow
from bidak.server.tournaments.service import LEASE_SECONDS
from bidak.server.tournaments.tables import EntrantRow, TournamentMatchRow, TournamentRow
from tests.server import backends
from tests.server.harness import Running, running_server, server_settings

pytestmark = pytest.mark.anyio
postgres_url = backends.postgres_url
redis_url = backends.redis_url


async def guest(running: Running) -> str:
    async with httpx.AsyncClient(base_url=running.base) as client:
        found: str = (await client.get("/api/me")).json()["id"]
        return found


def rows(connection: Connection, statement: Any) -> list[Any]:
    return list(connection.execute(statement))


async def read(running: Running, statement: Any) -> list[Any]:
    return await running.services.db.read(partial(rows, statement=statement))


async def play_out(running: Running, strength: dict[str, float]) -> int:
    """Every match in play in a tournament ends: the weaker gives up. How many ended. An
    arena's players first open the tables waiting for them (a match starts when both have)."""
    waiting = await read(
        running,
        select(
            TournamentMatchRow.room_code, TournamentMatchRow.seat0_id, TournamentMatchRow.seat1_id
        )
        .join(RoomRow, RoomRow.code == TournamentMatchRow.room_code)
        .join(TournamentRow, TournamentRow.id == TournamentMatchRow.tournament_id)
        .where(
            TournamentMatchRow.winner_id.is_(None),
            RoomRow.match_id.is_(None),
            TournamentRow.kind == "arena",
        ),
    )
    for room, a, b in waiting:
        for player in (a, b):
            await running.services.rooms.arrive(room, player)
    playing = await read(
        running,
        select(
            TournamentMatchRow.room_code, TournamentMatchRow.seat0_id, TournamentMatchRow.seat1_id
        )
        .join(RoomRow, RoomRow.code == TournamentMatchRow.room_code)
        .where(TournamentMatchRow.winner_id.is_(None), RoomRow.match_id.is_not(None)),
    )
    ended = 0
    for room, a, b in playing:
        live = await running.services.rooms.live(
            (await running.services.rooms.room(room)).match_id or ""
        )
        if live.finished:
            continue
        weaker = a if strength[a] < strength[b] else b
        await running.services.rooms.submit(room, weaker, ForfeitMatch, None)
        ended += 1
    return ended


async def check_ins(running: Running, knockout: str, players: list[str]) -> None:
    for player in players:
        await running.services.tournaments.check_in(knockout, player)


async def test_two_instances_run_an_arena_and_a_knockout_through_a_failover(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    clock = ManualClock()
    prefix = f"bidak-test-{secrets.token_hex(6)}:"
    async with contextlib.AsyncExitStack() as b_stack:
        a_stack = contextlib.AsyncExitStack()
        runs = []
        for name, stack in (("a", a_stack), ("b", b_stack)):
            settings = server_settings(
                tmp_path / name,
                database_url=postgres_url,
                bus_url=redis_url,
                instance_id=name,
                redis_prefix=prefix,
                arena_every_minutes=0,
            )
            runs.append(await stack.enter_async_context(running_server(settings, clock)))
        a, b = runs
        for run in runs:
            await run.services.tournaments.stop()  # stepped by hand below

        # 16 players for the arena, 8 of them also in the knockout; the ratings say who wins.
        players = [await guest(a if i % 2 else b) for i in range(16)]
        strength = {p: 1400.0 + 10 * i for i, p in enumerate(players)}
        for p, rating in strength.items():
            change = update(PlayerRow).where(PlayerRow.id == p).values(rating=rating)
            await a.services.db.write(partial(Connection.execute, statement=change))
        arena = await a.services.tournaments.create_arena("Failover", clock.now(), 30, 1, 90)
        assert arena is not None
        knockout = await b.services.tournaments.create_knockout(
            players[0], "Cup", 8, (3,), 90, 0.0, 600.0
        )
        for i, p in enumerate(players):
            await (a if i % 2 else b).services.tournaments.join(arena, p, strength[p])
        cup = players[8:]
        for p in cup:
            await a.services.tournaments.join(knockout, p, strength[p])

        # A steps both first and holds their leases; B may not step them meanwhile.
        assert await a.services.tournaments.tick() == 2
        assert await b.services.tournaments.tick() == 0
        await check_ins(a, knockout, cup)
        # One more round of each on A (the cup's first round, then its semi-finals).
        for _ in range(1):
            await play_out(a, strength)
            await a.services.tournaments.tick()
            await check_ins(a, knockout, cup)

        # A plans the next matches, then dies before making their rooms.
        async def dies(tournament_id: str) -> int:
            return 0

        a.services.tournaments.make_rooms = dies  # type: ignore[method-assign]
        await play_out(a, strength)
        await a.services.tournaments.tick()
        unmade = await read(
            b,
            select(TournamentMatchRow.room_code)
            .join(RoomRow, RoomRow.code == TournamentMatchRow.room_code, isouter=True)
            .where(RoomRow.code.is_(None)),
        )
        assert unmade, "A died with planned matches that have no room"
        await a_stack.aclose()

        # B waits for the leases to run out, then takes over and carries A's plan out.
        assert await b.services.tournaments.tick() == 0
        await clock.advance(LEASE_SECONDS + 1)
        assert await b.services.tournaments.tick() == 2
        owners = await read(b, select(TournamentRow.lease_owner))
        assert {o for (o,) in owners} == {b.services.tournaments.owner}
        await check_ins(b, knockout, cup)
        for _ in range(40):
            status = dict(await read(b, select(TournamentRow.id, TournamentRow.status)))
            if status[knockout] == "finished" and status[arena] != "running":
                break
            await play_out(b, strength)
            await clock.advance(5 * 60)  # the arena's 30 minutes pass, round after round
            await b.services.tournaments.tick()
            await check_ins(b, knockout, cup)
        status = dict(await read(b, select(TournamentRow.id, TournamentRow.status)))
        assert status == {arena: "finished", knockout: "finished"}

        # Nothing lost or doubled: every planned match has one room, one end, one result.
        matches = await read(b, select(TournamentMatchRow))
        assert all(m.winner_id is not None for m in matches)
        rooms = await read(
            b,
            select(func.count()).select_from(RoomRow).where(RoomRow.kind == "tournament"),
        )
        assert rooms[0][0] == len(matches)
        # One end each, rated or not (guests' matches are unrated: docs/rules.md, rated play).
        ends = 0
        for table in (RatedMatchRow, UnratedMatchRow):
            counted = await read(
                b,
                select(func.count())
                .select_from(table)
                .join(RoomRow, RoomRow.match_id == table.match_id)
                .where(RoomRow.kind == "tournament"),
            )
            ends += counted[0][0]
        assert ends == len(matches)
        for m in matches:
            assert m.winner_id == max(m.seat0_id, m.seat1_id, key=strength.__getitem__)
        entrants = await read(b, select(EntrantRow).where(EntrantRow.tournament_id == arena))
        arena_matches = [m for m in matches if m.tournament_id == arena]
        assert sum(e.played for e in entrants) == 2 * len(arena_matches)
        assert sum(e.wins for e in entrants) == len(arena_matches)
        assert all(e.room_code is None for e in entrants)

        # The winners are the strongest: of all 16, and of the 8 in the cup.
        winners = dict(await read(b, select(TournamentRow.id, TournamentRow.winner_id)))
        assert winners == {arena: players[15], knockout: players[15]}
        coins = await read(b, select(func.sum(PlayerRow.coins)))
        assert not coins[0][0]  # tournaments never move coins
