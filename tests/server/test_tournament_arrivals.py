"""A tournament match starts when both players opened its table, on the injected clock: an
arena's match waits up to the grace (20 s) for them; the one who never came forfeits that match
only (stored once, however often the tournament is stepped, by whichever process holds it), and
an arena player absent twice in a row is paused. No move clock runs meanwhile: no strikes."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update
from sqlalchemy.engine import Connection

from bidak.match import ForfeitMatch
from bidak.server.shared.clocks import ManualClock
from bidak.server.shared.store.models import PlayerRow
from bidak.server.tournaments import Tournaments
from tests.server.backends import database_url, postgres_url
from tests.server.harness import Client, link_addresses, running_server, server_settings
from tests.server.test_tournaments import look, me

__all__ = ["database_url", "postgres_url"]
pytestmark = pytest.mark.anyio


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Any:
    return server_settings(tmp_path, database_url=database_url, arena_every_minutes=0)


async def test_an_arena_match_waits_for_its_players_and_the_absent_forfeit(settings: Any) -> None:
    clock = ManualClock()
    async with running_server(settings, clock) as running:
        clients = [Client(running) for _ in range(3)]
        for client in clients:
            await client.__aenter__()
        try:
            ann, bob, cat = clients  # Bob never opens a table
            ids = [await me(c) for c in clients]
            await link_addresses(running, *ids)
            for pid, rating in zip(ids, (1900, 1800, 1500), strict=True):
                change = update(PlayerRow).where(PlayerRow.id == pid).values(rating=rating)
                await running.services.db.write(partial(Connection.execute, statement=change))
            service = running.services.tournaments
            tid = await service.create_arena("Grace", clock.now(), 30, 1, 30)
            assert tid is not None
            for client in clients:
                assert (await client.http.post(f"/api/tournaments/{tid}/join")).status_code == 200

            async def standing(client: Client) -> dict[str, tuple[int, bool]]:
                rows = (await look(client, tid))["standings"]
                return {row["id"]: (row["score"], row["paused"]) for row in rows}

            # Ann and Bob are paired (nearest rating); their table waits for both.
            await service.tick()
            first = (await look(ann, tid))["next_match"]
            assert first["opponent"] == ids[1] and first["started"] is False
            mine = (await bob.http.get("/api/tournaments/mine")).json()
            assert mine == {"active": True, "waiting": {"tournament": tid, "room": first["room"]}}
            assert (await ann.join(first["room"]))["table"] is None
            await clock.advance(19)
            await service.tick()
            assert (await look(ann, tid))["next_match"]["room"] == first["room"]
            # The grace runs out: Bob, who never came, forfeits this match (Ann scores a win).
            await clock.advance(1)
            await service.tick()
            assert await standing(ann) == {
                ids[0]: (2, False),
                ids[1]: (0, False),
                ids[2]: (0, False),
            }
            view = (await ann.http.get(f"/api/tournaments/room/{first['room']}")).json()
            assert (view["id"], view["kind"], view["number"]) == (tid, "arena", 1)

            # Ann and Cat come to their table: the match starts at once, no strike on anyone.
            second = (await look(ann, tid))["next_match"]
            assert second["opponent"] == ids[2]
            assert (await ann.join(second["room"]))["table"] is None
            started = await cat.join(second["room"])
            assert started["table"] is not None and started["table"]["strikes"] == [0, 0]
            # Bob, the odd one out, waits for an opponent (his finished table says so).
            assert (await bob.http.get(f"/api/tournaments/room/{first['room']}")).json()["waiting"]
            await running.services.rooms.submit(second["room"], ids[2], ForfeitMatch, None)
            await service.tick()

            # Bob and Cat are paired; Cat comes, Bob does not. The process that ran the
            # arena stops stepping it (as if it died); another takes its lease over and ends
            # the grace, which is in the database, on the clock.
            third = (await look(cat, tid))["next_match"]
            assert third["opponent"] == ids[1]
            await cat.join(third["room"])
            await service.stop()
            other = Tournaments(
                running.services.db,
                running.services.rooms,
                running.services.bus,
                clock,
                running.services.settings,
                owner="another process",
            )
            await clock.advance(5)
            assert await other.tick() == 0  # the first one's lease holds for 10 s
            await clock.advance(16)  # the lease has run out, and the grace
            assert await other.tick() == 1
            table = await standing(ann)
            assert table[ids[1]] == (0, True)  # absent twice in a row: paused
            assert table[ids[2]] == (2, False)
            assert (await look(bob, tid))["paused"] is True
            # Stored once: more steps by either process change no score, and Bob is never
            # paired again while paused.
            for _ in range(3):
                await clock.advance(11)
                await other.tick()
                await service.tick()
            assert await standing(ann) == table | {ids[1]: (0, True)}
            assert (await look(bob, tid))["next_match"] is None
            assert (await bob.http.get("/api/tournaments/mine")).json()["waiting"] is None
        finally:
            for client in clients:
                await client.__aexit__(None, None, None)


async def test_a_knockouts_next_round_waits_for_its_players_then_the_absent_lose(
    settings: Any,
) -> None:
    clock = ManualClock()
    async with running_server(settings, clock) as running:
        clients = [Client(running) for _ in range(4)]
        for client in clients:
            await client.__aenter__()
        try:
            ids = [await me(c) for c in clients]
            service = running.services.tournaments
            rooms = running.services.rooms
            tid = await service.create_knockout(ids[0], "Cup", 4, (3,), 30, 0.0, 600.0)
            for i, pid in enumerate(ids):
                await service.join(tid, pid, 1900 - 100 * i)  # seed i + 1
            await service.tick()
            semis = (await look(clients[0], tid))["bracket"][0]
            assert [(s["a"]["id"], s["b"]["id"]) for s in semis] == [
                (ids[0], ids[3]),
                (ids[1], ids[2]),
            ]
            # The first round: its players come to their tables; the worse seeds give up.
            for slot, loser in zip(semis, (ids[3], ids[2]), strict=True):
                for pid in (slot["a"]["id"], slot["b"]["id"]):
                    await rooms.arrive(slot["room"], pid)
                await rooms.submit(slot["room"], loser, ForfeitMatch, None)
            await service.tick()
            final = (await look(clients[0], tid))["bracket"][1][0]
            assert (final["a"]["id"], final["b"]["id"]) == (ids[0], ids[1])
            # The final: seed 2 opens the table, seed 1 does not. 19 s: it waits; past 20 s
            # (plans on a clock that stands still are a millisecond apart): seed 1, who would
            # win a tie of absences, loses it, and the cup is over.
            await clients[1].join(final["room"])
            await clock.advance(19)
            await service.tick()
            assert (await look(clients[0], tid))["status"] == "running"
            await clock.advance(2)
            await service.tick()
            view = await look(clients[0], tid)
            assert view["status"] == "finished" and view["winner"] == ids[1]
            assert view["bracket"][1][0]["how"] == "forfeit"
        finally:
            for client in clients:
                await client.__aexit__(None, None, None)
