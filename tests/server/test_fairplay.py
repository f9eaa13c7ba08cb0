"""Fair play over HTTP, on SQLite and PostgreSQL: reports, the moderator role, every action and
its audit entry, the queue, and a ban's rating refund given exactly once under concurrency."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute
from sqlalchemy import func, insert, select
from sqlalchemy.engine import Connection

from bidak.fairplay import LEAVER_WAIT, WINDOW, figures_of
from bidak.server.fairplay.routes import router
from bidak.server.fairplay.tables import RefundRow
from bidak.server.play.rated_queries import RatedEnd, rate
from bidak.server.play.tables import MatchRow, RatedMatchRow, RoomRow
from bidak.server.shared.clocks import ManualClock
from tests.server.backends import database_url, postgres_url
from tests.server.harness import (
    Client,
    Running,
    friend_room,
    link_addresses,
    running_server,
    server_settings,
)

__all__ = ["database_url", "postgres_url"]
pytestmark = pytest.mark.anyio

NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC).timestamp()


@pytest.fixture
async def site(database_url: str, tmp_path: Path) -> AsyncIterator[tuple[Running, ManualClock]]:
    clock = ManualClock(NOW)
    async with running_server(server_settings(tmp_path, database_url=database_url), clock) as r:
        yield r, clock


async def me(client: Client) -> dict[str, Any]:
    answer: dict[str, Any] = (await client.http.get("/api/me")).json()
    return answer


async def make_moderator(running: Running, client: Client) -> str:
    player_id = (await me(client))["id"]
    await running.services.fairplay.set_moderator(player_id, True, "test")
    return player_id


async def a_match(running: Running, seat0: str, seat1: str | None) -> str:
    """A finished match row between two players (or a player and a bot), stored directly."""

    def work(connection: Connection) -> str:
        code = f"r{abs(hash((seat0, seat1, datetime.now().timestamp()))) % 10**12}"
        at = datetime.fromtimestamp(NOW, UTC)
        connection.execute(
            insert(RoomRow.__table__).values(
                code=code,
                kind="friend" if seat1 else "practice",
                created_at=at,
                creator_id=seat0,
                seat0_id=seat0,
                seat1_id=seat1,
                bot_level=None if seat1 else "expert",
                rules={},
                match_id=code,
                rated=seat1 is not None,
            )
        )
        connection.execute(
            insert(MatchRow.__table__).values(
                id=code,
                room_code=code,
                rules={},
                state={},
                seed="0" * 64,
                seed_hash="0" * 64,
                finished=True,
                created_at=at,
                updated_at=at,
            )
        )
        return code

    return await running.services.db.write(work)


async def rated_win(running: Running, winner: str, loser: str, days_ago: float) -> str:
    await link_addresses(running, winner, loser)
    match_id = await a_match(running, winner, loser)
    at = datetime.fromtimestamp(NOW, UTC) - timedelta(days=days_ago)
    await running.services.db.write(partial(rate, end=RatedEnd(match_id, winner, loser, 3), at=at))
    return match_id


async def rating(running: Running, player_id: str) -> float:
    player = await running.services.store.player(player_id)
    assert player is not None
    return player.rating


async def test_a_player_reports_the_opponent_once_per_match(
    site: tuple[Running, ManualClock],
) -> None:
    running, _ = site
    async with Client(running) as alice, Client(running) as bob, Client(running) as eve:
        room, joined = await friend_room(alice, bob)
        match_id = joined["match_id"]
        report = {"match_id": match_id, "reason": "engine", "note": "too perfect"}
        made = await alice.http.post("/api/reports", json=report)
        assert made.status_code == 201, made.text
        assert made.json()["reason"] == "engine" and made.json()["match_id"] == match_id
        again = await alice.http.post("/api/reports", json=report | {"reason": "talk"})
        assert again.status_code == 409
        assert again.json()["detail"]["code"] == "already_reported"
        # Bob may report Alice on the same match: one open report per reporter and match.
        back = await bob.http.post("/api/reports", json=report | {"reason": "name"})
        assert back.status_code == 201
        # Eve did not play it; nobody reports a bot; reasons are a fixed set.
        stranger = await eve.http.post("/api/reports", json=report)
        assert stranger.json()["detail"]["code"] == "not_your_match"
        practice = await a_match(running, (await me(eve))["id"], None)
        bot = await eve.http.post("/api/reports", json=report | {"match_id": practice})
        assert bot.json()["detail"]["code"] == "not_your_match"
        wrong = await alice.http.post("/api/reports", json=report | {"reason": "luck"})
        assert wrong.status_code == 422
        # Twenty at once from one reporter on one new match: one report.
        other_room, other = await friend_room(eve, bob)
        answers = await asyncio.gather(
            *(
                eve.http.post("/api/reports", json=report | {"match_id": other["match_id"]})
                for _ in range(20)
            )
        )
        assert sorted(a.status_code for a in answers) == [201] + [409] * 19
        bob_id = (await me(bob))["id"]
        case = await running.services.fairplay.case(bob_id)
        assert [r.reason for r in case.open_reports] == ["engine", "engine"]
        assert room["code"] != other_room["code"]


async def test_every_moderator_route_refuses_everybody_else(
    site: tuple[Running, ManualClock],
) -> None:
    running, _ = site
    moderated = [r for r in router.routes if isinstance(r, APIRoute) and "/api/mod/" in r.path]
    assert len(moderated) == 3
    async with Client(running) as visitor, Client(running) as mod:
        target = (await me(visitor))["id"]
        for route in moderated:
            path = route.path.replace("{player_id}", target)
            for method in route.methods:
                body = {"kind": "warn", "note": "no"} if method == "POST" else None
                answer = await visitor.http.request(method, path, json=body)
                assert answer.status_code == 403, (method, path)
                assert answer.json()["detail"]["code"] == "not_moderator"
        assert await running.services.fairplay.actions_on(target) == []
        await make_moderator(running, mod)
        assert (await mod.http.get("/api/mod/queue")).status_code == 200
        # A revoked moderator is refused again.
        mod_id = (await me(mod))["id"]
        await running.services.fairplay.set_moderator(mod_id, False, "stepped down")
        assert (await mod.http.get("/api/mod/queue")).status_code == 403
        kinds = [a.kind for a in await running.services.fairplay.actions_on(mod_id)]
        assert kinds == ["revoke", "grant"]


async def test_each_action_is_done_audited_and_shown_to_its_player(
    site: tuple[Running, ManualClock],
) -> None:
    running, clock = site
    async with Client(running) as mod, Client(running) as rude, Client(running) as other:
        await make_moderator(running, mod)
        rude_id = (await me(rude))["id"]
        old_name = (await rude.http.patch("/api/me", json={"name": "Rude Word"})).json()["name"]
        room, joined = await friend_room(other, rude)
        await other.http.post(
            "/api/reports", json={"match_id": joined["match_id"], "reason": "name"}
        )

        async def act(kind: str, note: str, **extra: Any) -> Any:
            await clock.advance(60)
            return await mod.http.post(
                f"/api/mod/players/{rude_id}/actions", json={"kind": kind, "note": note, **extra}
            )

        assert (await act("warn", "mind your words")).status_code == 200
        renamed = await act("rename", "the name insults")
        assert renamed.json()["detail"] == old_name and renamed.json()["by"]
        new_name = (await me(rude))["name"]
        assert new_name != old_name
        refused = await rude.http.patch("/api/me", json={"name": "rude word"})
        assert refused.status_code == 422
        assert refused.json()["detail"]["code"] == "name_replaced"
        assert (await rude.http.patch("/api/me", json={"name": "Kind Soul"})).status_code == 200

        assert (await act("mute", "spamming sorry")).status_code == 200
        assert (await act("mute", "twice")).status_code == 409
        await rude.join(room["code"])
        await rude.send({"type": "talk", "phrase": "sorry"})
        said = await rude.until(lambda m: m["type"] in ("error", "talk"))
        assert said["type"] == "error" and said["code"] == "muted"
        assert (await act("unmute", "served")).status_code == 200
        await rude.send({"type": "talk", "phrase": "hello"})
        assert (await rude.until(lambda m: m["type"] in ("error", "talk")))["type"] == "talk"

        assert (await act("ban", "engine help, looked at")).status_code == 200
        assert (await act("unban", "appeal granted")).status_code == 200
        assert (await act("dance", "no such thing")).status_code == 422
        assert (await act("warn", "   ")).status_code == 422
        myself = await mod.http.post(
            f"/api/mod/players/{(await me(mod))['id']}/actions", json={"kind": "warn", "note": "x"}
        )
        assert myself.json()["detail"]["code"] == "yourself"

        mine = (await rude.http.get("/api/me/actions")).json()
        assert [a["kind"] for a in mine] == ["unban", "ban", "unmute", "mute", "rename", "warn"]
        assert mine[-1]["note"] == "mind your words" and "by" not in mine[-1]
        assert (await other.http.get("/api/me/actions")).json() == []
        # Each decision is in the player's notification centre, once.
        notes = (await rude.http.get("/api/notifications")).json()["notes"]
        assert [n["kind"] for n in notes].count("moderator") == 6
        case = (await mod.http.get(f"/api/mod/players/{rude_id}")).json()
        assert [a["kind"] for a in case["actions"]][:2] == ["unban", "ban"]
        assert case["open_reports"] == 0  # the warning closed the report
        assert case["reports"][0]["open"] is False


async def test_a_banned_players_results_stop_counting(site: tuple[Running, ManualClock]) -> None:
    running, _ = site
    async with Client(running) as mod, Client(running) as cheat, Client(running) as victim:
        await make_moderator(running, mod)
        cheat_id, victim_id = (await me(cheat))["id"], (await me(victim))["id"]
        await mod.http.post(
            f"/api/mod/players/{cheat_id}/actions", json={"kind": "ban", "note": "engine"}
        )
        before = await rating(running, victim_id)
        await rated_win(running, cheat_id, victim_id, days_ago=0)
        assert await rating(running, victim_id) == before


async def test_the_queue_puts_the_strongest_flag_first_then_reports(
    site: tuple[Running, ManualClock],
) -> None:
    running, _ = site
    fairplay = running.services.fairplay
    async with (
        Client(running) as mod,
        Client(running) as bot_like,
        Client(running) as strong,
        Client(running) as reported,
    ):
        await make_moderator(running, mod)
        ids = [(await me(c))["id"] for c in (bot_like, strong, reported)]
        # Ten reviewed matches each: one at PR 0.5 with steady times, one at PR 2.5.
        for pr, player_id in ((0.5, ids[0]), (2.5, ids[1])):
            for _ in range(WINDOW):
                match_id = await rated_win(running, player_id, ids[2], days_ago=1)
                losses = [pr / 500 * (3 if i % 3 == 0 else 0) for i in range(60)]
                times = [8.0 + (i % 2) for i in range(40)]
                await fairplay.store_figures(
                    match_id, player_id, 2, figures_of(losses, times), False
                )
        match_id = await a_match(running, ids[1], ids[2])
        await strong.http.post("/api/reports", json={"match_id": match_id, "reason": "talk"})
        queue = (await mod.http.get("/api/mod/queue")).json()
        assert [c["player"]["id"] for c in queue] == [ids[0], ids[2]]
        assert queue[0]["signal"]["flagged"] and queue[0]["signal"]["strength"] > 0
        assert queue[0]["signal"]["pr"] == pytest.approx(0.5)
        assert queue[1]["open_reports"] == 1 and queue[1]["reasons"] == ["talk"]
        case = (await mod.http.get(f"/api/mod/players/{ids[0]}")).json()
        assert len(case["history"]) == WINDOW
        assert case["history"][0]["think_mean"] == pytest.approx(8.5)
        assert case["history"][0]["think_cv"] == pytest.approx(0.06, abs=0.01)


async def test_a_ban_refunds_thirty_days_of_losses_exactly_once_under_concurrency(
    site: tuple[Running, ManualClock],
) -> None:
    running, _ = site
    async with (
        Client(running) as mod1,
        Client(running) as mod2,
        Client(running) as cheat,
        Client(running) as alice,
        Client(running) as bob,
    ):
        for mod in (mod1, mod2):
            await make_moderator(running, mod)
        cheat_id, alice_id, bob_id = [(await me(c))["id"] for c in (cheat, alice, bob)]
        start = {p: await rating(running, p) for p in (alice_id, bob_id)}
        await rated_win(running, cheat_id, alice_id, days_ago=40)  # too old: kept
        after_old = await rating(running, alice_id)
        recent = [
            await rated_win(running, cheat_id, alice_id, days_ago=20),
            await rated_win(running, cheat_id, bob_id, days_ago=2),
            await rated_win(running, cheat_id, bob_id, days_ago=1),
        ]
        await rated_win(running, alice_id, cheat_id, days_ago=1)  # a win over the cheat: kept
        alice_won = await rating(running, alice_id)
        assert alice_won > after_old
        lost = {
            alice_id: await lost_to(running, cheat_id, alice_id, 30),
            bob_id: await lost_to(running, cheat_id, bob_id, 30),
        }
        assert lost[alice_id] > 0 and lost[bob_id] > 0
        before = {p: await rating(running, p) for p in (alice_id, bob_id)}

        path = f"/api/mod/players/{cheat_id}/actions"
        body = {"kind": "ban", "note": "engine help"}
        answers = await asyncio.gather(
            *(m.http.post(path, json=body) for _ in range(6) for m in (mod1, mod2))
        )
        assert sorted(a.status_code for a in answers) == [200] + [409] * 11
        for player_id in (alice_id, bob_id):
            assert await rating(running, player_id) == pytest.approx(
                before[player_id] + lost[player_id], abs=1e-9
            )
        assert await refunded(running) == sorted(recent)
        ban = next(a for a in answers if a.status_code == 200).json()
        assert ban["detail"].startswith("3 refund(s)")

        # Lifted and banned again: nothing is refunded a second time.
        await mod1.http.post(path, json={"kind": "unban", "note": "appeal"})
        again = await mod2.http.post(path, json=body)
        assert again.status_code == 200 and again.json()["detail"] is None
        for player_id in (alice_id, bob_id):
            assert await rating(running, player_id) == pytest.approx(
                before[player_id] + lost[player_id], abs=1e-9
            )
        assert start[alice_id] != before[alice_id]
        seen = (await cheat.http.get("/api/me/actions")).json()
        assert [a["kind"] for a in seen] == ["ban", "unban", "ban"]


async def lost_to(running: Running, winner: str, loser: str, days: int) -> float:
    since = datetime.fromtimestamp(NOW, UTC) - timedelta(days=days)
    table = RatedMatchRow.__table__

    def work(connection: Connection) -> float:
        return float(
            -connection.execute(
                select(func.sum(table.c.loser_change)).where(
                    table.c.winner_id == winner, table.c.loser_id == loser, table.c.at >= since
                )
            ).scalar_one()
        )

    return await running.services.db.read(work)


async def refunded(running: Running) -> list[str]:
    def work(connection: Connection) -> list[str]:
        rows = connection.execute(select(RefundRow.__table__.c.match_id)).scalars()
        return sorted(rows)

    return await running.services.db.read(work)


async def test_a_frequent_leaver_waits_a_minute_longer_in_quick_match(
    site: tuple[Running, ManualClock],
) -> None:
    running, clock = site
    options = {"length": 5, "move_seconds": 45, "cube": True}
    async with Client(running) as leaver, Client(running) as other:
        leaver_id, other_id = (await me(leaver))["id"], (await me(other))["id"]
        fairplay = running.services.fairplay
        for left in (True, False, True, True):
            match_id = await rated_win(running, other_id, leaver_id, days_ago=1)
            await fairplay.store_figures(match_id, leaver_id, 2, figures_of([0.01] * 50), left)
        assert await fairplay.extra_wait(leaver_id) == LEAVER_WAIT
        assert await fairplay.extra_wait(other_id) == 0.0
        assert (await fairplay.case(leaver_id)).leaver

        await other.http.post("/api/quick", json=options)
        waiting = (await leaver.http.post("/api/quick", json=options)).json()
        assert waiting["room"] is None  # the other is waiting, but not for a leaver yet
        await clock.advance(LEAVER_WAIT)
        await running.services.quick.pair_now()
        assert not (await leaver.http.get("/api/quick")).json()["waiting"]
        room = (await other.http.get("/api/quick")).json()["room"]
        assert room is not None
        assert (await leaver.http.get(f"/api/rooms/{room}")).json()["seat"] is not None
