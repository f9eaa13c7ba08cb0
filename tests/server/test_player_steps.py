"""A player's rows in every capability at the three moments that touch them all (issue 36,
"each capability owns its tables"): a guest signing in to its account, the account's export,
and its deletion; run by accounts through the steps each capability hands in. On SQLite and
PostgreSQL, over HTTP with a real SMTP server.

And every table that holds a player's rows is named here with what happens to them, so a new
table cannot be forgotten: its author decides and adds its steps (``app/steps.py``)."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import bidak.server.app  # noqa: F401  (every capability's tables on the metadata)
from bidak.server.shared.clocks import ManualClock
from bidak.server.shared.store.models import Base
from tests.server.backends import database_url, postgres_url
from tests.server.harness import Running, running_server, server_settings
from tests.server.smtp_sink import SmtpSink, link_in, smtp_sink
from tests.server.test_accounts import browser, link_email, me, token_of

__all__ = ["database_url", "postgres_url", "smtp_sink"]
pytestmark = pytest.mark.anyio

Site = tuple[Running, SmtpSink]


@pytest.fixture
async def site(database_url: str, tmp_path: Path, smtp_sink: SmtpSink) -> AsyncIterator[Site]:
    settings = server_settings(
        tmp_path,
        database_url=database_url,
        smtp_url=smtp_sink.url,
        arena_every_minutes=0,
        knockout_every_minutes=0,
    )
    async with running_server(settings, ManualClock()) as running:
        yield running, smtp_sink


HANDLED = {
    "players": "accounts: the row itself (retired at a merge, anonymised at a deletion)",
    "sessions": "accounts: ended at a deletion",
    "email_links": "accounts: deleted at a deletion",
    "rooms": "play: seats at finished matches move; exported",
    "rated_matches": "play: exported; kept for the opponents' records",
    "unrated_matches": "play: kept for the opponents' records and tournaments",
    "vacations": "play: the guest's bank stays with the retired guest (a new account has its own)",
    "mutes": "play: stays with the retired guest; kept at a deletion (ids only)",
    "ledger": "wallet: the balance moves as two entries; exported",
    "owned": "wallet: moves; exported",
    "quick_queue": "matchmaking: left at a merge and a deletion",
    "reviewed": "community: moves",
    "figures": "fairplay: moves",
    "actions": "fairplay: the audit trail stays; a restriction is carried at a merge",
    "reports": "fairplay: the moderators' record stays",
    "refunds": "fairplay: the moderators' record stays",
    "cards": "training: moves",
    "drills": "training: moves with their cards",
    "puzzles": "training: the source moves",
    "puzzle_answers": "training: moves",
    "tournament_players": "tournaments: places stay (the matches' seats carry them)",
    "tournaments": "tournaments: who made one stays",
    "notifications": "notifications: stay with the retired guest",
    "notify_choices": "notifications: deleted at a deletion",
    "letters_sent": "notifications: keys of letters sent, pruned after a month",
    "push_subscriptions": "notifications: deleted at a deletion; a guest's follows the account"
    " when the page registers it again after the sign-in",
    "follows": "friends: move at a merge; deleted both ways at a deletion; exported",
    "blocks": "friends: move at a merge; deleted both ways at a deletion; exported",
    "challenges": "friends: open ones cancelled at a merge and a deletion; exported",
}


def test_every_table_holding_a_players_rows_is_decided() -> None:
    holding = {
        table.name
        for table in Base.metadata.tables.values()
        if table.name == "players"
        or any(fk.column.table.name == "players" for fk in table.foreign_keys)
    }
    assert holding - set(HANDLED) == set(), "decide what a merge, an export, a deletion do"
    assert set(HANDLED) - holding == set(), "a table named here no longer holds players' rows"


async def _sign_in(site: Site, guest: Any, address: str) -> dict[str, Any]:
    _, sink = site
    await guest.post("/api/auth/email-login", json={"email": address, "lang": "en"})
    letters = len(sink.to(address))
    link = token_of(link_in(await sink.wait_for(address, letters + 1)))
    signed: dict[str, Any] = (await guest.post("/api/auth/email", json={"token": link})).json()
    return signed


async def test_a_guests_friends_and_settings_join_the_account_and_go_with_it(
    site: Site,
) -> None:
    running, sink = site
    async with browser(running) as phone, browser(running) as laptop, browser(running) as bob:
        owner = await me(phone)
        token = await link_email(phone, sink, "owner@example.com")
        await phone.post("/api/auth/email", json={"token": token})
        bob_id = (await me(bob))["id"]
        carol = browser(running)
        async with carol:
            carol_id = (await me(carol))["id"]
            # The guest on the laptop follows Bob, blocks Carol, challenges Bob and follows
            # the account itself; Carol follows the guest.
            assert (await laptop.put(f"/api/friends/{bob_id}")).status_code in (200, 204)
            assert (await laptop.put(f"/api/friends/{owner['id']}")).status_code in (200, 204)
            assert (await laptop.put(f"/api/blocks/{carol_id}")).status_code in (200, 204)
            challenge = await laptop.post(
                "/api/challenges",
                json={"to": bob_id, "length": 3, "days_per_move": 2},
            )
            assert challenge.status_code in (200, 201), challenge.text

            signed = await _sign_in(site, laptop, "owner@example.com")
            assert signed["signed_in"] == owner["id"]

            friends = json.dumps((await phone.get("/api/friends")).json())
            assert bob_id in friends and owner["id"] not in friends, "never oneself"
            assert carol_id in json.dumps((await phone.get("/api/blocks")).json())
            assert (await bob.get("/api/challenges")).json()["incoming"] == [], "cancelled"

            export = await phone.get("/api/me/export")
            document = json.loads(zipfile.ZipFile(io.BytesIO(export.content)).read("account.json"))
            assert [f["player"] for f in document["follows"]] == [bob_id]
            assert [b["player"] for b in document["blocks"]] == [carol_id]
            assert document["challenges"] == [], "the guest's cancelled one stays the guest's"
            assert {"ledger", "owned", "rooms", "rated_matches", "sessions"} <= set(document)

            # The account switches a push kind off, then is deleted: its follows (both
            # ways), blocks and settings go.
            await phone.put(
                "/api/notifications/settings", json={"channel": "push", "kind": "over", "on": False}
            )
            await bob.put(f"/api/friends/{owner['id']}")
            asked = await phone.request("DELETE", "/api/me", json={"confirm": False, "lang": "en"})
            assert asked.status_code == 202
            letter = await sink.wait_for("owner@example.com", 3)
            done = await phone.post("/api/auth/email", json={"token": token_of(link_in(letter))})
            assert done.json()["signed_in"] is None
            assert owner["id"] not in json.dumps((await bob.get("/api/friends")).json())
            db = running.services.db
            from sqlalchemy import text

            for table, column in (
                ("follows", "follower_id"),
                ("follows", "followee_id"),
                ("blocks", "blocker_id"),
                ("notify_choices", "player_id"),
            ):
                left = await db.read(
                    lambda c, t=table, col=column: c.execute(
                        text(f"SELECT count(*) FROM {t} WHERE {col} = :p"), {"p": owner["id"]}
                    ).scalar_one()
                )
                assert left == 0, (table, column)
