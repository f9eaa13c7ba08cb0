"""Notification settings (issue 38): per kind, a push to the player's browsers (on until they
switch it off) and an e-mail (off until a player with a linked address opts in); each choice
is the player's own, kept across requests, and bad input gets a clear error. On SQLite and
PostgreSQL, with two requests choosing at once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bidak.server.shared.clocks import ManualClock
from tests.server.backends import database_url, postgres_url
from tests.server.harness import Client, Running, link_addresses, running_server, server_settings

__all__ = ["database_url", "postgres_url"]
pytestmark = pytest.mark.anyio

PATH = "/api/notifications/settings"


@pytest.fixture
async def site(database_url: str, tmp_path: Path) -> AsyncIterator[Running]:
    settings = server_settings(
        tmp_path, database_url=database_url, arena_every_minutes=0, knockout_every_minutes=0
    )
    async with running_server(settings, ManualClock()) as running:
        yield running


async def _settings(client: Client) -> dict[str, Any]:
    answer = await client.http.get(PATH)
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


async def test_push_is_on_and_email_off_until_chosen_and_each_choice_is_ones_own(
    site: Running,
) -> None:
    async with Client(site) as alice, Client(site) as bob:
        first = await _settings(alice)
        assert first["email_linked"] is False
        assert all(first["push"].values()) and {"turn", "time", "over"} <= set(first["push"])
        assert set(first["email"]) == {"turn", "time"} and not any(first["email"].values())

        answer = await alice.http.put(PATH, json={"channel": "push", "kind": "over", "on": False})
        assert answer.status_code == 200 and answer.json()["push"]["over"] is False
        assert (await _settings(alice))["push"]["over"] is False
        assert (await _settings(bob))["push"]["over"] is True
        answer = await alice.http.put(PATH, json={"channel": "push", "kind": "over", "on": True})
        assert answer.json()["push"]["over"] is True

        # E-mail needs an address; once linked, the digest can be switched on.
        answer = await alice.http.put(PATH, json={"channel": "email", "kind": "turn", "on": True})
        assert answer.status_code == 409 and answer.json()["detail"]["code"] == "no_address"
        alice_id = (await alice.http.get("/api/me")).json()["id"]
        await link_addresses(site, alice_id)
        answer = await alice.http.put(PATH, json={"channel": "email", "kind": "turn", "on": True})
        assert answer.status_code == 200 and answer.json()["email"] == {"turn": True, "time": False}
        assert answer.json()["email_linked"] is True
        wants = site.services.notifications.wants
        assert await wants(alice_id, "turn", "email") and not await wants(alice_id, "time", "email")


async def test_bad_choices_get_a_clear_error_and_change_nothing(site: Running) -> None:
    async with Client(site) as alice:
        before = await _settings(alice)
        for body, status, code in (
            ({"channel": "email", "kind": "over", "on": True}, 422, "unknown_kind"),
            ({"channel": "push", "kind": "gossip", "on": True}, 422, "unknown_kind"),
        ):
            answer = await alice.http.put(PATH, json=body)
            assert answer.status_code == status and answer.json()["detail"]["code"] == code
        for body in (
            {"channel": "sms", "kind": "turn", "on": True},
            {"channel": "push", "kind": "turn"},
            {"channel": "push", "kind": "turn", "on": True, "extra": 1},
            {"channel": "push", "kind": "t" * 17, "on": True},
        ):
            assert (await alice.http.put(PATH, json=body)).status_code == 422
        assert await _settings(alice) == before


async def test_two_requests_choosing_at_once_keep_one_row_and_the_last_word(
    site: Running,
) -> None:
    async with Client(site) as alice:
        choices = [
            alice.http.put(PATH, json={"channel": "push", "kind": "turn", "on": False})
            for _ in range(6)
        ]
        answers = await asyncio.gather(*choices)
        assert {a.status_code for a in answers} == {200}
        assert (await _settings(alice))["push"]["turn"] is False
