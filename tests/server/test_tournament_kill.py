"""Two real ``bidak serve`` processes on one PostgreSQL database and one Redis bus run an arena
of 16 scripted players and a knockout of 8 to the end; the process that runs both tournaments
(it holds their leases) is killed with SIGKILL midway, between waves of results, wherever its
step happens to be. The other takes the leases over when they run out, makes any room the dead
one planned, and finishes both: every match is decided once, has one room and one end
(rated, or unrated between guests), and the winners are the ones the results make.

The players are HTTP and WebSocket clients of the surviving process B (their sessions live in
the database): they join, check in for their knockout matches, and the weaker of each pair (a
lower rating) gives the match up with the Resign button's ``forfeit``. The test waits on the
database for what it needs next (a wave of started matches, the takeover), never for a time. The
site's clocks are the system's; the lease is made short through its setting
(``BIDAK_TOURNAMENT_LEASE_SECONDS``) so the takeover comes within seconds, and the arena's window
is closed by the test writing its end, as the passing of its 30 minutes would.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from sqlalchemy import func, select, update
from sqlalchemy.engine import Connection
from websockets.asyncio.client import connect
from websockets.typing import Origin

from bidak.bench.server import ServerProcess
from bidak.server.play.tables import RatedMatchRow, RoomRow, UnratedMatchRow
from bidak.server.shared.store.db import Database
from bidak.server.shared.store.models import PlayerRow
from bidak.server.shared.store.rows import insert_rows
from bidak.server.tournaments.tables import EntrantRow, TournamentMatchRow, TournamentRow
from bidak.tournament import ArenaEntrant, record_result, standings
from tests.server import backends

pytestmark = pytest.mark.anyio
postgres_url = backends.postgres_url
redis_url = backends.redis_url

T = TypeVar("T")
LEASE = 4
"""Seconds a lease holds: the takeover comes this long (and a tick) after the kill. A renews
its leases every second, so a loaded machine may delay a tick by 3 s without B stealing them."""
WAIT = 40.0
"""Seconds the test waits for the next thing it needs before it fails."""
WAVES_BEFORE_KILL = 2


def rows(connection: Connection, statement: Any) -> list[Any]:
    return list(connection.execute(statement))


class Player:
    """One person's browser: a session cookie, and the Resign button."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.cookie = ""
        self.id = ""

    async def request(self, method: str, path: str, **options: Any) -> Any:
        headers = {"Origin": self.base, **({"Cookie": self.cookie} if self.cookie else {})}
        async with httpx.AsyncClient(base_url=self.base, trust_env=False) as http:
            answer = await http.request(method, path, headers=headers, **options)
        assert answer.status_code < 300, f"{method} {path}: {answer.status_code} {answer.text}"
        if "bidak_session" in answer.cookies:
            self.cookie = f"bidak_session={answer.cookies['bidak_session']}"
        return answer.json() if answer.content else None

    async def come(self, room: str) -> None:
        """Open the table of ``room`` (a match starts when both players have), as a page does
        when the player is paired; the table's first answer is its snapshot."""
        url = self.base.replace("http", "ws", 1) + "/ws"
        async with connect(
            url,
            additional_headers={"Cookie": self.cookie},
            origin=Origin(self.base),
            proxy=None,
            open_timeout=WAIT,
        ) as socket:
            await socket.send(json.dumps({"type": "join", "room": room}))
            while True:
                message = json.loads(str(await asyncio.wait_for(socket.recv(), WAIT)))
                assert message["type"] != "error", message
                if message["type"] == "snapshot":
                    return

    async def forfeit(self, room: str) -> None:
        """Open the room, press Resign, and see the match over."""
        url = self.base.replace("http", "ws", 1) + "/ws"
        async with connect(
            url,
            additional_headers={"Cookie": self.cookie},
            origin=Origin(self.base),
            proxy=None,
            open_timeout=WAIT,
        ) as socket:
            await socket.send(json.dumps({"type": "join", "room": room}))
            sent = False
            while True:
                text = str(await asyncio.wait_for(socket.recv(), WAIT))
                message = json.loads(text)
                assert message["type"] != "error", message
                if '"match_over"' in text:
                    return
                if message["type"] == "snapshot" and not sent:
                    intent = {"type": "intent", "action": {"type": "forfeit"}}
                    await socket.send(json.dumps(intent))
                    sent = True


async def until(check: Callable[[], Any], what: str) -> Any:
    """Poll the database until ``check`` gives something true; fail after :data:`WAIT`."""
    end = time.monotonic() + WAIT
    while time.monotonic() < end:
        found = await check()
        if found:
            print(f"{time.monotonic():.2f} {what}: {found}")  # for a failure's report
            return found
        await asyncio.sleep(0.05)
    raise TimeoutError(f"waited {WAIT:g} s for {what}")


async def test_killing_the_process_that_runs_the_tournaments_loses_and_doubles_nothing(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    env = {
        "BIDAK_ENVIRONMENT": "test",
        "BIDAK_BOT_DELAY": "0",
        "BIDAK_ARENA_EVERY_MINUTES": "0",
        "BIDAK_KNOCKOUT_EVERY_MINUTES": "0",
        "BIDAK_TOURNAMENT_LEASE_SECONDS": str(LEASE),
        "BIDAK_REDIS_PREFIX": f"bidak-test-{secrets.token_hex(6)}:",
        "BIDAK_RATE_PER_SECOND": "1000",
        "BIDAK_RATE_BURST": "1000",
        "BIDAK_PLAYER_RATE_PER_SECOND": "1000",
        "BIDAK_PLAYER_RATE_BURST": "1000",
        "BIDAK_GUESTS_PER_MINUTE": "1000000",
        "BIDAK_ROOMS_PER_MINUTE": "1000000",
    }
    a, b = (
        ServerProcess.bidak(postgres_url, bus_url=redis_url, log=tmp_path / f"{name}.log")
        for name in "ab"
    )
    db = Database(postgres_url)

    async def read(statement: Any) -> list[Any]:
        return await db.read(partial(rows, statement=statement))

    async def write(statement: Any) -> None:
        await db.write(partial(Connection.execute, statement=statement))

    def arena_row(tid: str, starts_at: float, private: bool = False) -> TournamentRow:
        """A site arena, as the schedule makes it (its window closed by the test)."""
        return TournamentRow(
            id=tid,
            kind="arena",
            name="Arena 30",
            created_at=datetime.now(UTC),
            starts_at=starts_at,
            ends_at=starts_at + 3600,
            lengths={"rounds": [1]},
            move_seconds=90,
            max_players=1000,
            status="open",
            private=private,
        )

    async def holders() -> dict[str, tuple[str | None, str]]:
        found = await read(
            select(TournamentRow.id, TournamentRow.lease_owner, TournamentRow.status).where(
                TournamentRow.id.in_(ours)
            )
        )
        return {tid: (owner, status) for tid, owner, status in found}

    async def held_by(prefix: str) -> bool:
        found = await holders()
        return all((o or "").startswith(prefix) and s == "running" for o, s in found.values())

    ours: list[str] = []
    try:
        a.start(**env, BIDAK_INSTANCE_ID="a")
        await a.ready()
        print(f"{time.monotonic():.2f} A ready")
        # A warm-up arena while A is alone tells A's name on the leases; it then ends empty.
        warm_up = "WARMUP" + secrets.token_hex(4)
        await db.write(partial(insert_rows, rows=[arena_row(warm_up, time.time(), True)]))
        ours = [warm_up]
        await until(lambda: held_by("a-"), "A to take the warm-up's lease")
        a_name = (await holders())[warm_up][0]
        await write(
            update(TournamentRow).where(TournamentRow.id == warm_up).values(ends_at=time.time())
        )
        b.start(**env, BIDAK_INSTANCE_ID="b")  # B boots meanwhile

        # 16 players (their sessions made by A); the ratings say who wins every match.
        players = [Player(a.url) for _ in range(16)]
        ids = await asyncio.gather(*(p.request("GET", "/api/me") for p in players))
        for player, me in zip(players, ids, strict=True):
            player.id = me["id"]
        print(f"{time.monotonic():.2f} players made")
        strength = {p.id: 1400.0 + 10 * i for i, p in enumerate(players)}
        for pid, rating in strength.items():
            await write(update(PlayerRow).where(PlayerRow.id == pid).values(rating=rating))

        # A site arena and a player's knockout; all join, then both start at once, run by A
        # (their leases are A's from the start, so B, once up, cannot take them before A dies).
        arena = "KILLARENA" + secrets.token_hex(4)
        await db.write(partial(insert_rows, rows=[arena_row(arena, time.time() + 3600)]))
        cup = players[8:]
        # A knockout is made by an account that lasts (a linked address).
        await write(
            update(PlayerRow).where(PlayerRow.id == cup[0].id).values(email="cup@example.test")
        )
        knockout = (
            await cup[0].request(
                "POST",
                "/api/tournaments",
                json={"name": "Cup", "max_players": 8, "lengths": [3], "starts_in_minutes": 60},
            )
        )["id"]
        ours = [arena, knockout]
        print(f"{time.monotonic():.2f} tournaments made")
        # The arena's 16 are entered as its join does (one row each; joining over HTTP is
        # tested elsewhere, and 16 at once take seconds on a loaded machine); the cup's 7
        # more join through the page's button.
        joined = [
            EntrantRow(
                tournament_id=arena,
                player_id=p.id,
                rating=strength[p.id],
                joined_at=time.time(),
                score=0,
                streak=0,
                wins=0,
                played=0,
                paused=False,
            )
            for p in players
        ]
        await db.write(partial(insert_rows, rows=joined))
        await asyncio.gather(
            *(p.request("POST", f"/api/tournaments/{knockout}/join") for p in cup[1:])
        )
        now = time.time()
        await write(
            update(TournamentRow)
            .where(TournamentRow.id.in_(ours))
            .values(starts_at=now, lease_owner=a_name, lease_until=now + LEASE)
        )
        await until(lambda: held_by("a-"), "A to start both tournaments")

        handled: set[str] = set()
        by_id = {p.id: p for p in players}

        async def wave() -> int:
            """Check in for the knockout's planned matches and open the arena's tables, then
            the weaker player of every started match not handled yet gives it up. How many
            matches ended."""
            planned = await read(
                select(
                    TournamentMatchRow.room_code,
                    TournamentMatchRow.tournament_id,
                    TournamentMatchRow.seat0_id,
                    TournamentMatchRow.seat1_id,
                    RoomRow.code,
                    RoomRow.match_id,
                )
                .join(RoomRow, RoomRow.code == TournamentMatchRow.room_code, isouter=True)
                .where(TournamentMatchRow.winner_id.is_(None))
            )
            for room, tid, s0, s1, made, match in planned:
                if tid == knockout and made is not None and match is None:
                    for seat in (s0, s1):
                        await by_id[seat].request("POST", f"/api/tournaments/{knockout}/ready")
                elif made is not None and match is None:
                    await asyncio.gather(*(by_id[seat].come(room) for seat in (s0, s1)))
            started = await read(
                select(
                    TournamentMatchRow.room_code,
                    TournamentMatchRow.seat0_id,
                    TournamentMatchRow.seat1_id,
                )
                .join(RoomRow, RoomRow.code == TournamentMatchRow.room_code)
                .where(TournamentMatchRow.winner_id.is_(None), RoomRow.match_id.is_not(None))
            )
            fresh = [(room, s0, s1) for room, s0, s1 in started if room not in handled]
            handled.update(room for room, _, _ in fresh)
            await asyncio.gather(
                *(
                    by_id[min(s0, s1, key=strength.__getitem__)].forfeit(room)
                    for room, s0, s1 in fresh
                )
            )
            return len(fresh)

        async def statuses() -> dict[str, str]:
            return {tid: s for tid, (_, s) in (await holders()).items()}

        # A runs the first waves (its players on A); right after the results of the last one
        # reach it, it dies. Its players come back on B, as a browser reconnects.
        for _ in range(WAVES_BEFORE_KILL):
            await until(wave, "a wave of matches on A")
        await b.ready()
        assert await held_by("a-"), "A ran both tournaments up to its death"
        a.kill()
        for player in players:
            player.base = b.url
        assert a.process is not None and a.process.returncode == -9
        killed = time.time()
        print(f"{time.monotonic():.2f} A killed")

        # B takes both leases over once A's run out, and plays on.
        await until(lambda: held_by("b-"), "B to take the tournaments over")
        took_over = time.time()
        assert took_over - killed < LEASE + 5

        async def planned_by_b() -> bool:
            """A wave, then whether B has planned a match since A died (A may have planned
            the next round of both tournaments just before it died: B's first wave only
            ends those, and the arena pairs its players again after)."""
            await wave()
            latest = await read(
                select(func.max(TournamentMatchRow.created_at)).where(
                    TournamentMatchRow.tournament_id.in_(ours)
                )
            )
            return latest[0][0] is not None and latest[0][0] > killed

        await until(planned_by_b, "B to plan a match of its own")
        # The arena's window closes; the matches in play end, and both tournaments finish.
        await write(
            update(TournamentRow).where(TournamentRow.id == arena).values(ends_at=time.time())
        )

        async def over() -> bool:
            await wave()
            return set((await statuses()).values()) == {"finished"}

        assert (await statuses())[arena] == "running"

        await until(over, "both tournaments to finish")

        # Nothing lost or doubled: every planned match has one room, one end, one result,
        # and the stronger player won each.
        matches = await read(
            select(TournamentMatchRow).where(TournamentMatchRow.tournament_id.in_(ours))
        )
        assert all(m.winner_id is not None and m.how == "played" for m in matches)
        assert all(m.winner_id == max(m.seat0_id, m.seat1_id, key=strength.get) for m in matches)
        codes = [m.room_code for m in matches]
        assert len(codes) == len(set(codes)) == len(handled)
        rooms = await read(select(RoomRow.code).where(RoomRow.kind == "tournament"))
        assert sorted(code for (code,) in rooms) == sorted(codes)
        # One end each, rated or not (guests' matches are unrated: docs/rules.md, rated play).
        ends: dict[str, int] = {}
        for table in (RatedMatchRow, UnratedMatchRow):
            for code, count in await read(
                select(RoomRow.code, func.count())
                .join(table, table.match_id == RoomRow.match_id)
                .where(RoomRow.kind == "tournament")
                .group_by(RoomRow.code)
            ):
                ends[code] = ends.get(code, 0) + count
        assert sorted(ends.items()) == sorted((code, 1) for code in codes)
        created = [m.created_at for m in matches]
        assert min(created) < killed < max(created), "matches were planned by both processes"

        # The knockout: 7 matches, the strongest of its 8 the champion.
        cup_matches = [m for m in matches if m.tournament_id == knockout]
        assert len(cup_matches) == 7
        winners = dict(
            await read(
                select(TournamentRow.id, TournamentRow.winner_id).where(TournamentRow.id.in_(ours))
            )
        )
        assert winners[knockout] == max((p.id for p in cup), key=strength.__getitem__)

        # The arena: the stored table is the one its results make, played in order, and its
        # winner heads it.
        entrants: dict[str, ArenaEntrant] = {
            p.id: ArenaEntrant(p.id, strength[p.id]) for p in players
        }
        for m in sorted(
            (m for m in matches if m.tournament_id == arena), key=lambda m: m.created_at
        ):
            loser = m.seat1_id if m.winner_id == m.seat0_id else m.seat0_id
            won, lost = record_result(entrants[m.winner_id], entrants[loser])
            entrants[won.player], entrants[lost.player] = won, lost
        stored = await read(select(EntrantRow).where(EntrantRow.tournament_id == arena))
        assert {e.player_id: (e.score, e.wins, e.played) for e in stored} == {
            e.player: (e.score, e.wins, e.played) for e in entrants.values()
        }
        assert all(e.room_code is None for e in stored)
        assert winners[arena] == standings(entrants.values())[0].player
        assert not (await read(select(func.sum(PlayerRow.coins))))[0][0]
    except BaseException:
        for process in (a, b):
            if process.log and process.log.exists():
                print(process.log.read_text(errors="replace")[-4000:])
        raise
    finally:
        a.kill()
        b.stop()
        await db.close()
