"""Coins over HTTP on SQLite and PostgreSQL: one credit a day however often the button is
pressed, purchases that a retry never charges twice, and matches that never touch a balance."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from bidak.economy.shop import CHECKERS, FREE
from bidak.server.shared.clocks import ManualClock
from tests.server.backends import database_url, postgres_url
from tests.server.harness import Client, Running, friend_room, running_server, server_settings
from tests.server.scripted import Script, drive, play_all

__all__ = ["database_url", "postgres_url"]
pytestmark = pytest.mark.anyio

# 23:59 in Jakarta (UTC+7) on 1 December 2026.
LATE = datetime.fromisoformat("2026-12-01T23:59:00+07:00").timestamp()


@pytest.fixture
async def site(database_url: str, tmp_path: Path) -> AsyncIterator[tuple[Running, ManualClock]]:
    clock = ManualClock(LATE)
    settings = server_settings(tmp_path, database_url=database_url)
    async with running_server(settings, clock) as running:
        yield running, clock


def browser(running: Running) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=running.base, headers={"Origin": running.base})


async def me(http: httpx.AsyncClient) -> dict[str, Any]:
    answer = await http.get("/api/me")
    answer.raise_for_status()
    me: dict[str, Any] = answer.json()
    return me


async def assert_balance_is_the_ledger_sum(running: Running, player_id: str) -> int:
    wallets = running.services.wallets
    purse = await wallets.purse(player_id)
    assert purse.balance == await wallets.ledger_sum(player_id)
    assert purse.balance >= 0
    return purse.balance


async def test_one_credit_a_site_day_and_the_streak_follows_the_table(
    site: tuple[Running, ManualClock],
) -> None:
    running, clock = site
    async with browser(running) as http:
        player = await me(http)
        first = (await http.post("/api/me/checkin")).json()
        assert first == {  # the first check-in brings the welcome gift with it
            "already": False,
            "credited": 10,
            "welcome": 40,
            "balance": 50,
            "streak": 1,
            "next_reward": 10,
            "day": "2026-12-01",
        }
        again = await http.post("/api/me/checkin")
        assert again.status_code == 200
        nothing = {"already": True, "credited": 0, "welcome": 0}
        assert again.json() | {"next_reward": 10} == first | nothing

        await clock.advance(120)  # 00:01 in Jakarta: a new day, although UTC's day is the same
        second = (await http.post("/api/me/checkin")).json()
        assert (second["day"], second["streak"], second["credited"]) == ("2026-12-02", 2, 10)
        for expected in (15, 15, 20, 20, 40, 10):
            await clock.advance(24 * 3600)
            assert (await http.post("/api/me/checkin")).json()["credited"] == expected

        await clock.advance(2 * 24 * 3600)  # a missed day
        wallet = (await http.get("/api/me/wallet")).json()
        assert wallet["streak"] == 0 and not wallet["checked_in_today"]
        assert wallet["next_reward"] == 10
        reset = (await http.post("/api/me/checkin")).json()
        assert (reset["streak"], reset["credited"]) == (1, 10)

        wallet = (await http.get("/api/me/wallet")).json()
        assert wallet["balance"] == 40 + 10 + 10 + 15 + 15 + 20 + 20 + 40 + 10 + 10
        assert wallet["checked_in_today"] and wallet["rewards"] == [10, 10, 15, 15, 20, 20, 40]
        assert [e["reason"] for e in wallet["entries"]] == ["checkin"] * 9 + ["welcome"]
        assert wallet["entries"][0]["balance_after"] == wallet["balance"]
        assert (await me(http))["coins"] == wallet["balance"]
        await assert_balance_is_the_ledger_sum(running, player["id"])


async def test_fifty_check_ins_at_once_credit_once(site: tuple[Running, ManualClock]) -> None:
    running, _ = site
    async with browser(running) as http:
        player = await me(http)
        answers = await asyncio.gather(*(http.post("/api/me/checkin") for _ in range(50)))
        assert {a.status_code for a in answers} == {200}
        bodies = [a.json() for a in answers]
        assert sum(1 for b in bodies if not b["already"]) == 1
        assert {b["balance"] for b in bodies} == {50}
        assert await assert_balance_is_the_ledger_sum(running, player["id"]) == 50
        entries = await running.services.wallets.entries(player["id"])
        assert [e.reason for e in entries] == ["checkin", "welcome"]


async def test_twenty_retries_of_one_purchase_charge_once(
    site: tuple[Running, ManualClock],
) -> None:
    running, _ = site
    async with browser(running) as http:
        player = await me(http)
        await running.services.wallets.grant(player["id"], 500, "test")
        key = {"Idempotency-Key": str(uuid.uuid4())}
        answers = await asyncio.gather(
            *(http.post("/api/shop/ruby/buy", headers=key) for _ in range(20))
        )
        assert {a.status_code for a in answers} == {200}
        bodies = [a.json() for a in answers]
        assert {(b["item"], b["price"], b["balance"]) for b in bodies} == {("ruby", 50, 450)}
        assert sum(1 for b in bodies if not b["replayed"]) == 1
        assert await assert_balance_is_the_ledger_sum(running, player["id"]) == 450


async def test_with_coins_for_one_purchase_only_one_of_twenty_succeeds(
    site: tuple[Running, ManualClock],
) -> None:
    running, _ = site
    async with browser(running) as http:
        player = await me(http)
        await running.services.wallets.grant(player["id"], 80, "test")

        async def buy(item: str) -> httpx.Response:
            return await http.post(
                f"/api/shop/{item}/buy", headers={"Idempotency-Key": str(uuid.uuid4())}
            )

        # The same item under twenty keys: bought once, then owned.
        same = await asyncio.gather(*(buy("jade") for _ in range(20)))
        assert sorted(a.status_code for a in same) == [200] + [409] * 19
        assert {a.json()["detail"] for a in same if a.status_code == 409} == {
            "You own this already"
        }
        # Twenty items at 80 with 30 coins left: none; then 50 more coins, and one of twenty.
        costly = [c.id for c in CHECKERS if c.price == 80] * 10
        broke = await asyncio.gather(*(buy(item) for item in costly))
        assert {a.status_code for a in broke} == {409}
        assert "Not enough coins: this costs 80 and you have 30" in broke[0].json()["detail"]
        await running.services.wallets.grant(player["id"], 50, "test")
        one = await asyncio.gather(*(buy(item) for item in costly))
        assert sorted(a.status_code for a in one) == [200] + [409] * 19
        assert await assert_balance_is_the_ledger_sum(running, player["id"]) == 0


async def test_a_purchase_needs_a_good_key_and_an_item_that_exists(
    site: tuple[Running, ManualClock],
) -> None:
    running, _ = site
    async with browser(running) as http:
        player = await me(http)
        await running.services.wallets.grant(player["id"], 200, "test")
        missing = await http.post("/api/shop/ruby/buy")
        assert missing.status_code == 428 and "Idempotency-Key" in missing.json()["detail"]
        short = await http.post("/api/shop/ruby/buy", headers={"Idempotency-Key": "x"})
        assert short.status_code == 422
        unknown = await http.post("/api/shop/plaid/buy", headers={"Idempotency-Key": "k" * 16})
        assert unknown.status_code == 404
        free = await http.post("/api/shop/ivory/buy", headers={"Idempotency-Key": "k" * 16})
        assert free.status_code == 409
        first = await http.post("/api/shop/ruby/buy", headers={"Idempotency-Key": "k" * 16})
        reused = await http.post("/api/shop/gold/buy", headers={"Idempotency-Key": "k" * 16})
        assert first.status_code == 200 and reused.status_code == 409
        assert "another purchase" in reused.json()["detail"]
        assert await assert_balance_is_the_ledger_sum(running, player["id"]) == 150


async def test_the_shop_lists_what_you_own_and_wear(site: tuple[Running, ManualClock]) -> None:
    running, _ = site
    async with browser(running) as http:
        player = await me(http)
        shop = (await http.get("/api/shop")).json()
        boards = [i for i in shop["items"] if i["kind"] == "board"]
        sets = [i for i in shop["items"] if i["kind"] == "checkers"]
        assert len(boards) >= 7 and len(sets) >= 7
        assert {i["id"] for i in shop["items"] if i["owned"]} == set(FREE)
        assert (shop["board"], shop["checkers"]) == (
            "classic",
            None,
        )  # nothing chosen: the seat decides
        picture = await http.get(boards[1]["preview"])
        assert picture.status_code == 200
        assert picture.headers["content-type"].startswith("image/svg+xml")
        assert picture.text.startswith("<svg") and boards[1]["colours"]["surface"] in picture.text

        refused = await http.post("/api/me/equip", json={"board": "night", "checkers": "gold"})
        assert refused.status_code == 409 and "Buy it" in refused.json()["detail"]
        wrong_kind = await http.post("/api/me/equip", json={"board": "gold"})
        assert wrong_kind.status_code == 404
        await running.services.wallets.grant(player["id"], 200, "test")
        for item in ("night", "gold"):
            bought = await http.post(
                f"/api/shop/{item}/buy", headers={"Idempotency-Key": str(uuid.uuid4())}
            )
            assert bought.status_code == 200
        worn = await http.post("/api/me/equip", json={"board": "night", "checkers": "gold"})
        assert worn.json() == {"board": "night", "checkers": "gold"}
        shop = (await http.get("/api/shop")).json()
        assert (shop["board"], shop["checkers"], shop["balance"]) == ("night", "gold", 0)
        assert {i["id"] for i in shop["items"] if i["equipped"]} == {"night", "gold"}


async def test_the_wallet_shows_the_last_fifty_entries_newest_first(
    site: tuple[Running, ManualClock],
) -> None:
    running, _ = site
    async with browser(running) as http:
        player = await me(http)
        for n in range(1, 61):
            await running.services.wallets.grant(player["id"], n, f"grant {n}")
        wallet = (await http.get("/api/me/wallet")).json()
        assert len(wallet["entries"]) == 50
        assert [e["note"] for e in wallet["entries"][:2]] == ["grant 60", "grant 59"]
        assert wallet["balance"] == sum(range(1, 61))


async def test_playing_matches_leaves_every_balance_unchanged(tmp_path: Path) -> None:
    async with (
        running_server(server_settings(tmp_path)) as running,
        Client(running) as alice,
        Client(running) as bob,
    ):
        wallets = running.services.wallets
        players = [(await me(c.http))["id"] for c in (alice, bob)]
        for player, coins in zip(players, (30, 0), strict=True):
            if coins:
                await wallets.grant(player, coins, "before the match")
        before = [(await wallets.purse(p)).balance for p in players]
        entries = [len(await wallets.entries(p)) for p in players]

        room, _ = await friend_room(alice, bob, length=1)
        await alice.join(room["code"])
        await bob.join(room["code"])
        finals = await play_all(
            drive(alice, Script(1, double=0.3), 0), drive(bob, Script(2, double=0.3), 1)
        )
        assert finals[0]["phase"] == "match_over"
        practice = await alice.http.post(
            "/api/rooms", json={"kind": "practice", "length": 1, "level": "beginner"}
        )
        await alice.join(practice.json()["code"])
        await drive(alice, Script(3), 0)

        assert [(await wallets.purse(p)).balance for p in players] == before
        assert [len(await wallets.entries(p)) for p in players] == entries
        for player in players:
            await assert_balance_is_the_ledger_sum(running, player)


async def test_the_opponent_and_spectators_see_the_checkers_a_player_wears(
    tmp_path: Path,
) -> None:
    async with (
        running_server(server_settings(tmp_path)) as running,
        Client(running) as alice,
        Client(running) as bob,
        Client(running) as watcher,
    ):
        wallets = running.services.wallets
        ids = [(await me(c.http))["id"] for c in (alice, bob)]
        for player, items in zip(ids, (["ruby"], ["gold", "onyx"]), strict=True):
            await wallets.grant(player, 300, "test")
            for item in items:
                await wallets.buy(player, item, "key-" + item * 2)
        room, _ = await friend_room(alice, bob)

        async def seen_by_all() -> set[tuple[str, ...]]:
            return {
                tuple(s["checkers"] for s in (await viewer.join(room["code"]))["seats"])
                for viewer in (alice, bob, watcher)
            }

        assert await seen_by_all() == {("ivory", "ebony")}
        await alice.http.post("/api/me/equip", json={"checkers": "ruby"}, headers=origin(alice))
        await bob.http.post("/api/me/equip", json={"checkers": "gold"}, headers=origin(bob))
        assert await seen_by_all() == {("ruby", "gold")}
        # Bob wears onyx, dark like Alice's ruby: on every screen his seat falls back to ivory.
        await bob.http.post("/api/me/equip", json={"checkers": "onyx"}, headers=origin(bob))
        assert await seen_by_all() == {("ruby", "ivory")}


def origin(client: Client) -> dict[str, str]:
    return {"Origin": client.running.base}
