"""Issue 23, change 8: a stranger cannot use up an address's sign-in links, ratings cannot be
farmed (guests play unrated; one pair moves each other's ratings at most 3 times a day, also
when two of their matches end at once), ``X-Forwarded-For`` is believed only from the proxies
the operator names, and answers about the signed-in player are never cached. Where state is
involved, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path

import httpx
import pytest

from bidak.server.play.options import FriendOptions
from bidak.server.play.rated_queries import RatedEnd, rate
from bidak.server.shared.clocks import ManualClock
from bidak.server.shared.http_limits import http_options
from bidak.server.shared.settings import Settings
from tests.server.backends import database_url, postgres_url
from tests.server.harness import (
    Client,
    Running,
    friend_room,
    link_addresses,
    running_server,
    server_settings,
)
from tests.server.scripted import Script, drive, play_all
from tests.server.smtp_sink import SmtpSink, smtp_sink

__all__ = ["database_url", "postgres_url", "smtp_sink"]
pytestmark = pytest.mark.anyio
PAIR_LIMIT = 3  # matches a pair may rate in a day (rated_queries.PAIR_LIMIT)


def from_client(running: Running, address: str) -> httpx.AsyncClient:
    """A browser at ``address`` (behind the local proxy, which development believes)."""
    headers = {"Origin": running.base, "X-Forwarded-For": address}
    return httpx.AsyncClient(base_url=running.base, headers=headers)


# -- sign-in links ------------------------------------------------------------------------------


async def test_a_stranger_cannot_use_up_an_addresss_sign_in_links(
    database_url: str, tmp_path: Path, smtp_sink: SmtpSink
) -> None:
    settings = server_settings(tmp_path, database_url=database_url, smtp_url=smtp_sink.url)
    async with running_server(settings, ManualClock()) as running:
        owner = "owner@example.com"
        async with from_client(running, "203.0.113.66") as stranger:
            for _ in range(3):
                asked = await stranger.post("/api/auth/email-login", json={"email": owner})
                assert asked.status_code == 202
            refused = await stranger.post("/api/auth/email-login", json={"email": owner})
            assert refused.status_code == 429
        async with from_client(running, "198.51.100.7") as own_browser:
            asked = await own_browser.post("/api/auth/email-login", json={"email": owner})
            assert asked.status_code == 202, "the owner still gets a link"
        # Many strangers together stop at the address's ceiling (20 an hour).
        sent = 4
        for n in range(10):
            async with from_client(running, f"192.0.2.{n + 1}") as another:
                for _ in range(3):
                    asked = await another.post("/api/auth/email-login", json={"email": owner})
                    sent += asked.status_code == 202
        assert sent == 20


# -- rated play ---------------------------------------------------------------------------------


async def play_rated(alice: Client, bob: Client) -> str:
    room, _ = await friend_room(alice, bob, length=1, rated=True)
    for client in (alice, bob):
        client.table, client.version = None, 0
    await alice.join(room["code"])
    await bob.join(room["code"])
    finals = await play_all(drive(alice, Script(5), 0), drive(bob, Script(6), 1))
    assert finals[0]["phase"] == "match_over"
    info = (await alice.http.get(f"/api/rooms/{room['code']}")).json()
    return str(info["match_id"])


async def test_guests_play_unrated_and_are_told_why(database_url: str, tmp_path: Path) -> None:
    settings = server_settings(tmp_path, database_url=database_url)
    async with running_server(settings) as running, Client(running) as a, Client(running) as b:
        ids = [(await c.http.get("/api/me")).json()["id"] for c in (a, b)]
        await link_addresses(running, ids[0])  # one account, one guest
        match_id = await play_rated(a, b)
        answer = (await a.http.get(f"/api/matches/{match_id}/rating")).json()
        assert answer["rated"] is False and answer["unrated"] == "guest"
        rows = await running.services.store.players(ids)
        assert [rows[p].rating for p in ids] == [1500.0, 1500.0]
        await link_addresses(running, ids[1])
        match_id = await play_rated(a, b)
        answer = (await a.http.get(f"/api/matches/{match_id}/rating")).json()
        assert answer["rated"] is True and answer["unrated"] is None


async def a_match(running: Running, one: str, other: str) -> str:
    services = running.services
    first, second = await services.store.player(one), await services.store.player(other)
    assert first is not None and second is not None
    room = await services.rooms.create_friend(first, FriendOptions(length=1))
    await services.rooms.join(room.code, second)
    room = await services.rooms.room(room.code)
    assert room.match_id is not None
    return room.match_id


async def test_one_pair_moves_each_others_ratings_three_times_a_day(
    database_url: str, tmp_path: Path
) -> None:
    settings = server_settings(tmp_path, database_url=database_url)
    async with running_server(settings) as running, Client(running) as viewer:
        store, db = running.services.store, running.services.db
        ana, budi, cici = [(await store.create_guest(n))[0].id for n in ("Ana", "Budi", "Cici")]
        await link_addresses(running, ana, budi, cici)
        at = datetime.now(UTC)

        async def end(winner: str, loser: str, when: datetime) -> tuple[str, bool]:
            match_id = await a_match(running, winner, loser)
            done = await db.write(partial(rate, end=RatedEnd(match_id, winner, loser, 1), at=when))
            return match_id, done

        for n in range(PAIR_LIMIT):  # either of the two may win
            assert (
                await end(ana, budi, at + timedelta(minutes=n))
                if n % 2
                else await end(budi, ana, at + timedelta(minutes=n))
            )[1]
        fourth, rated = await end(ana, budi, at + timedelta(minutes=10))
        assert not rated
        answer = (await viewer.http.get(f"/api/matches/{fourth}/rating")).json()
        assert answer == {
            "match_id": fourth,
            "rated": False,
            "players": [],
            "unrated": "pair_limit",
        }
        assert (await end(ana, cici, at + timedelta(minutes=11)))[1], "another pair is rated"
        assert (await end(budi, ana, at + timedelta(days=1, minutes=1)))[1], "a day later again"

        # Two matches of a new pair ending at once, with two rated already: one is the third.
        dewi, eka = [(await store.create_guest(n))[0].id for n in ("Dewi", "Eka")]
        await link_addresses(running, dewi, eka)
        for n in range(PAIR_LIMIT - 1):
            assert (await end(dewi, eka, at + timedelta(minutes=n)))[1]
        late = at + timedelta(minutes=30)
        both = [await a_match(running, dewi, eka) for _ in range(2)]
        done = await asyncio.gather(
            *(db.write(partial(rate, end=RatedEnd(m, dewi, eka, 1), at=late)) for m in both)
        )
        assert sorted(done) == [False, True]


# -- X-Forwarded-For ----------------------------------------------------------------------------


def test_forwarded_headers_are_believed_only_from_named_proxies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("FORWARDED_ALLOW_IPS", raising=False)
    production = Settings(
        environment="production",
        public_url="https://bidak.example",
        secret_key="k3J9x2QmZ7vN4pL8sR1tY6wE0uI5oA3d",
    )
    options = http_options(production)
    assert options["proxy_headers"] is False and options["forwarded_allow_ips"] == ""
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "10.0.0.5")
    options = http_options(production)
    assert options["proxy_headers"] is True and options["forwarded_allow_ips"] == "10.0.0.5"


async def test_without_a_named_proxy_x_forwarded_for_dodges_no_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("FORWARDED_ALLOW_IPS", raising=False)  # the operator named no proxy
    settings = server_settings(
        tmp_path,
        guests_per_minute=1,
        environment="production",
        public_url="https://bidak.example",
        secret_key="k3J9x2QmZ7vN4pL8sR1tY6wE0uI5oA3d",
    )
    async with running_server(settings, ManualClock()) as running:
        async with httpx.AsyncClient(base_url=running.base) as first:
            assert (await first.get("/api/me")).is_success
        async with from_client(running, "203.0.113.7") as dodger:
            assert (await dodger.get("/api/me")).status_code == 429


# -- personal answers ---------------------------------------------------------------------------


async def test_answers_about_the_signed_in_player_are_never_stored(tmp_path: Path) -> None:
    async with running_server(server_settings(tmp_path)) as running, Client(running) as me:
        for path in ("/api/me", "/api/me/matches", "/api/me/sessions", "/api/me/wallet"):
            answer = await me.http.get(path)
            assert answer.status_code == 200, path
            assert answer.headers["cache-control"] == "no-store", path
        renamed = await me.http.patch("/api/me", json={"name": "Kept Private"})
        assert renamed.headers["cache-control"] == "no-store"
