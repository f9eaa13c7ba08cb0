"""Accounts that last, over HTTP with a real SMTP server (aiosmtpd) on SQLite and PostgreSQL:
link an e-mail, sign in on a second browser with the guest's history merged, one-time and
expiring links, sessions, limits, export and deletion."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from sqlalchemy import text

from bidak.match import ForfeitMatch
from bidak.server.accounts.tokens import Signer
from bidak.server.shared.clocks import ManualClock
from bidak.server.training import queries as training_queries
from tests.server.backends import database_url, postgres_url
from tests.server.harness import Client, Running, friend_room, running_server, server_settings
from tests.server.scripted import Script, drive, play_all
from tests.server.smtp_sink import SmtpSink, link_in, smtp_sink
from tests.server.test_puzzles import card, pass_card

__all__ = ["database_url", "postgres_url", "smtp_sink"]
pytestmark = pytest.mark.anyio


Site = tuple[Running, ManualClock, SmtpSink]


@pytest.fixture
async def site(database_url: str, tmp_path: Path, smtp_sink: SmtpSink) -> AsyncIterator[Site]:
    clock = ManualClock()
    settings = server_settings(tmp_path, database_url=database_url, smtp_url=smtp_sink.url)
    async with running_server(settings, clock) as running:
        yield running, clock, smtp_sink


def browser(running: Running) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        base_url=running.base,
        headers={"Origin": running.base, "User-Agent": "Firefox/125.0 (X11; Linux x86_64)"},
    )


async def me(http: httpx.AsyncClient) -> dict[str, Any]:
    found: dict[str, Any] = (await http.get("/api/me")).json()
    return found


def token_of(link: str) -> str:
    return parse_qs(urlsplit(link).query)["token"][0]


async def link_email(http: httpx.AsyncClient, sink: SmtpSink, address: str, count: int = 1) -> str:
    answer = await http.post("/api/me/email", json={"email": address, "lang": "en"})
    assert answer.status_code == 202, answer.text
    assert answer.json() == {"status": "sent", "delivery": "smtp"}
    letter = await sink.wait_for(address, count)
    return token_of(link_in(letter))


async def test_link_an_address_then_sign_in_on_a_second_browser(site: Site) -> None:
    running, _, sink = site
    async with browser(running) as phone, browser(running) as laptop:
        owner = await me(phone)
        token = await link_email(phone, sink, "Budi@Example.com")
        letter = sink.to("budi@example.com")[0]
        assert letter["Subject"] == "Confirm your e-mail for Bidak"
        assert link_in(letter).startswith(f"{running.base}/auth/email?token=")
        preview = (await phone.get("/api/auth/email", params={"token": token})).json()
        assert preview == {
            "purpose": "link_email",
            "state": "ready",
            "name": owner["name"],
            "address": "b***i@example.com",
        }
        old_cookie = phone.cookies["bidak_session"]
        done = await phone.post("/api/auth/email", json={"token": token})
        assert done.status_code == 200 and done.json()["signed_in"] == owner["id"]
        assert phone.cookies["bidak_session"] != old_cookie  # rotated on the new privilege
        assert (await me(phone))["email_linked"] is True
        async with httpx.AsyncClient(base_url=running.base) as thief:
            thief.cookies.set("bidak_session", old_cookie)
            assert (await me(thief))["id"] != owner["id"]

        # The laptop is a guest with a finished practice match of its own.
        guest = await me(laptop)
        practice = await laptop.post(
            "/api/rooms", json={"kind": "practice", "length": 1, "level": "beginner"}
        )
        async with Client(running) as watcher:
            watcher.http.cookies.clear()  # this client plays as the laptop's guest
            watcher.http.cookies.set("bidak_session", laptop.cookies["bidak_session"])
            await watcher.join(practice.json()["code"])
            await drive(watcher, Script(2), 0)
        login = await laptop.post(
            "/api/auth/email-login", json={"email": "budi@example.com", "lang": "fi"}
        )
        assert login.status_code == 202
        letter = await sink.wait_for("budi@example.com", 2)
        assert letter["Subject"] == "Kirjaudu Bidakiin"
        signed = await laptop.post("/api/auth/email", json={"token": token_of(link_in(letter))})
        assert signed.json() == {"purpose": "sign_in", "signed_in": owner["id"], "merged": 1}
        assert (await me(laptop))["id"] == owner["id"]
        history = (await laptop.get("/api/me/matches")).json()
        assert [h["match_id"] for h in history] == [practice.json()["match_id"]]
        assert (await me(phone))["id"] == owner["id"]  # the phone stays signed in
        retired = await running.services.store.player(guest["id"])
        assert retired is not None and retired.merged_into == owner["id"]


async def test_a_link_works_once_for_thirty_minutes_and_for_its_own_account(site: Site) -> None:
    running, clock, sink = site
    async with browser(running) as alice, browser(running) as mallory:
        first = await link_email(alice, sink, "alice@example.com")
        other = await mallory.post("/api/auth/email", json={"token": first})
        assert other.status_code == 403 and "another account" in other.json()["detail"]
        assert (await alice.post("/api/auth/email", json={"token": first})).status_code == 200
        again = await alice.post("/api/auth/email", json={"token": first})
        assert again.status_code == 410 and "used already" in again.json()["detail"]

        await mallory.post("/api/auth/email-login", json={"email": "alice@example.com"})
        late = token_of(link_in(await sink.wait_for("alice@example.com", 2)))
        await clock.advance(30 * 60 + 1)
        expired = await mallory.post("/api/auth/email", json={"token": late})
        assert expired.status_code == 410 and "expired" in expired.json()["detail"]
        preview = (await mallory.get("/api/auth/email", params={"token": late})).json()
        assert preview["state"] == "expired"
        unknown = await mallory.post("/api/auth/email", json={"token": "x" * 43})
        assert unknown.status_code == 404
        # A link changed by one character, or signed under another secret, is not the site's.
        forged = late[:-2] + ("A" if late[-2] != "A" else "B") + late[-1]
        assert (await mallory.post("/api/auth/email", json={"token": forged})).status_code == 404
        raw = running.services.signer.verify("email-link", late, clock.now(), expired_ok=True)
        other = Signer("another site's secret, 40 characters long").sign(
            "email-link", raw, clock.now(), 1800
        )
        assert (await mallory.post("/api/auth/email", json={"token": other})).status_code == 404


async def test_the_answer_never_tells_whether_an_address_is_known(site: Site) -> None:
    running, _, sink = site
    async with browser(running) as alice, browser(running) as eve:
        await alice.post(
            "/api/auth/email",
            json={"token": await link_email(alice, sink, "alice@example.com")},
        )
        outbox = running.services.accounts.outbox
        assert outbox is not None
        known = await eve.post("/api/auth/email-login", json={"email": "alice@example.com"})
        unknown = await eve.post("/api/auth/email-login", json={"email": "nobody@example.com"})
        assert (known.status_code, known.json()) == (unknown.status_code, unknown.json())
        await sink.wait_for("alice@example.com", 2)
        # Linking somebody else's address: the same answer, and the owner gets a sign-in link.
        taken = await eve.post("/api/me/email", json={"email": "ALICE@example.com"})
        assert taken.status_code == 202 and taken.json() == known.json()
        letter = await sink.wait_for("alice@example.com", 3)
        assert letter["Subject"] == "Masuk ke Bidak"  # Indonesian: no language was given
        assert (await me(eve))["email_linked"] is False
        assert sink.to("nobody@example.com") == []


async def test_sessions_are_listed_and_logout_all_ends_every_one(site: Site) -> None:
    running, _, sink = site
    async with browser(running) as phone, browser(running) as laptop:
        owner = await me(phone)
        await phone.post(
            "/api/auth/email", json={"token": await link_email(phone, sink, "s@example.com")}
        )
        await laptop.get("/api/me")
        await laptop.post("/api/auth/email-login", json={"email": "s@example.com"})
        link = link_in(await sink.wait_for("s@example.com", 2))
        await laptop.post("/api/auth/email", json={"token": token_of(link)})
        listed = (await phone.get("/api/me/sessions")).json()
        assert len(listed) == 2 and sum(s["current"] for s in listed) == 1
        assert {s["device"] for s in listed} == {"Firefox on Linux"}
        laptop_session = next(s for s in listed if not s["current"])
        ended = await phone.delete(f"/api/me/sessions/{laptop_session['id']}")
        assert ended.status_code == 204
        assert (await me(laptop))["id"] != owner["id"]
        assert (await phone.delete(f"/api/me/sessions/{laptop_session['id']}")).status_code == 404

        await laptop.post("/api/auth/email-login", json={"email": "s@example.com"})
        link = link_in(await sink.wait_for("s@example.com", 3))
        await laptop.post("/api/auth/email", json={"token": token_of(link)})
        assert (await me(laptop))["id"] == owner["id"]
        assert (await laptop.post("/api/auth/logout-all")).status_code == 204
        assert (await me(phone))["id"] != owner["id"]
        assert (await me(laptop))["id"] != owner["id"]


async def test_links_are_limited_per_address_and_per_client(site: Site) -> None:
    running, _, _ = site
    async with browser(running) as http:
        for _ in range(3):
            answer = await http.post("/api/auth/email-login", json={"email": "x@example.com"})
            assert answer.status_code == 202
        refused = await http.post("/api/auth/email-login", json={"email": "x@example.com"})
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
        for n in range(7):  # with the first three: ten from this client in the hour
            sent = await http.post("/api/auth/email-login", json={"email": f"y{n}@example.com"})
            assert sent.status_code == 202
        busy = await http.post("/api/auth/email-login", json={"email": "z@example.com"})
        assert busy.status_code == 429
        bad = await http.post("/api/auth/email-login", json={"email": "not an address"})
        assert bad.status_code in (422, 429)


async def test_export_holds_the_account_and_its_finished_matches(site: Site) -> None:
    running, _, _ = site
    async with Client(running) as alice, Client(running) as bob:
        room, _ = await friend_room(alice, bob, length=1)
        await alice.join(room["code"])
        await bob.join(room["code"])
        await play_all(drive(alice, Script(1), 0), drive(bob, Script(2), 1))
        answer = await alice.http.get("/api/me/export")
        assert answer.status_code == 200
        assert answer.headers["content-type"] == "application/zip"
        archive = zipfile.ZipFile(io.BytesIO(answer.content))
        names = archive.namelist()
        document = json.loads(archive.read("account.json"))
        assert document["account"]["id"] == (await alice.http.get("/api/me")).json()["id"]
        assert len(document["rooms"]) == 1 and len(document["sessions"]) == 1
        assert "token_hash" not in json.dumps(document)
        mats = [n for n in names if n.startswith("matches/")]
        assert len(mats) == 1 and "1 point match" in archive.read(mats[0]).decode()


async def test_deleting_keeps_the_opponents_records_readable(site: Site) -> None:
    running, _, sink = site
    async with Client(running) as alice, Client(running) as bob:
        alice.http.headers["Origin"] = running.base
        room, _ = await friend_room(alice, bob, length=1)
        await alice.join(room["code"])
        await bob.join(room["code"])
        await play_all(drive(alice, Script(3), 0), drive(bob, Script(4), 1))
        await alice.http.post(
            "/api/auth/email",
            json={"token": await link_email(alice.http, sink, "gone@example.com")},
        )
        asked = await alice.http.request("DELETE", "/api/me", json={"confirm": False, "lang": "en"})
        assert asked.status_code == 202
        letter = await sink.wait_for("gone@example.com", 2)
        assert letter["Subject"] == "Delete your Bidak account"
        done = await alice.http.post("/api/auth/email", json={"token": token_of(link_in(letter))})
        assert done.json()["signed_in"] is None
        history = (await bob.http.get("/api/me/matches")).json()
        assert history[0]["opponent"] == "deleted player"

        # A guest without an address is deleted at once, after saying so.
        async with browser(running) as guest:
            await guest.get("/api/me")
            refused = await guest.request("DELETE", "/api/me", json={"confirm": False})
            assert refused.status_code == 422
            gone = await guest.request("DELETE", "/api/me", json={"confirm": True})
            assert gone.status_code == 204


async def test_a_foreign_origin_changes_no_account(site: Site) -> None:
    running, _, sink = site
    async with browser(running) as alice:
        token = await link_email(alice, sink, "o@example.com")
        evil = {"Origin": "https://evil.example"}
        for method, path, body in (
            ("POST", "/api/me/email", {"email": "evil@example.com"}),
            ("POST", "/api/auth/email", {"token": token}),
            ("POST", "/api/auth/email-login", {"email": "o@example.com"}),
            ("POST", "/api/auth/logout-all", None),
            ("DELETE", "/api/me", {"confirm": True}),
        ):
            answer = await alice.request(method, path, json=body, headers=evil)
            assert answer.status_code == 403, (path, answer.text)
        assert (await me(alice))["email_linked"] is False
        assert len(sink.to("o@example.com")) == 1 and sink.to("evil@example.com") == []
        # The link is still unused: the site's own page may use it.
        assert (await alice.post("/api/auth/email", json={"token": token})).status_code == 200


async def _finished_match(running: Running, code: str, match_id: str, player_id: str) -> None:
    """A finished practice match of ``player_id`` stored directly (its cards need one)."""
    at = datetime.now(UTC)
    async with running.services.db.engine.begin() as connection:
        await connection.execute(
            text(
                "INSERT INTO rooms (code, kind, created_at, creator_id, seat0_id, rules)"
                " VALUES (:c, 'practice', :t, :p, :p, '{}')"
            ),
            {"c": code, "t": at, "p": player_id},
        )
        await connection.execute(
            text(
                "INSERT INTO matches (id, room_code, rules, state, version, seed, seed_hash,"
                " dice_drawn, finished, created_at, updated_at)"
                " VALUES (:m, :c, '{}', '{}', 0, 's', 'h', 0, true, :t, :t)"
            ),
            {"m": match_id, "c": code, "t": at},
        )
        await connection.execute(
            text("UPDATE rooms SET match_id = :m WHERE code = :c"), {"m": match_id, "c": code}
        )


async def test_a_guests_training_and_puzzle_rating_follow_it_into_the_account(site: Site) -> None:
    """A guest banks blunder cards and solves a puzzle, then signs in to its account: the
    account has the cards, the answer and the surer rating, and is not offered the puzzles made
    from the guest's own positions (nobody is given their own)."""
    running, _, sink = site
    async with (
        browser(running) as phone,
        browser(running) as laptop,
        browser(running) as other,
    ):
        owner = await me(phone)
        await phone.post("/api/auth/email", json={"token": await link_email(phone, sink, "a@x.io")})
        guest, maker = (await me(laptop))["id"], (await me(other))["id"]
        await _finished_match(running, "rguest", "mguest", guest)
        await _finished_match(running, "rmaker", "mmaker", maker)
        db = running.services.training.db
        banked = [
            card(guest, 3, match_id="mguest"),
            pass_card(guest, 5, match_id="mguest"),
            pass_card(maker, 5, match_id="mmaker"),
        ]
        assert await db.write(partial(training_queries.bank, cards=banked)) == 3
        offered = (await laptop.get("/api/puzzles/next", params={"theme": "pass"})).json()
        puzzle = offered["puzzle"]
        url = f"/api/puzzles/{puzzle['id']}/answer"
        solved = (await laptop.post(url, json={"type": "cube", "choice": "drop"})).json()
        assert solved["right"] is True and solved["rating"] > 1500
        before = (await phone.get("/api/puzzles/next", params={"theme": "opening"})).json()
        assert before["puzzle"] is not None, "the guest's position, offered to the account"

        await laptop.post("/api/auth/email-login", json={"email": "a@x.io", "lang": "en"})
        link = token_of(link_in(await sink.wait_for("a@x.io", 2)))
        signed = (await laptop.post("/api/auth/email", json={"token": link})).json()
        assert signed["signed_in"] == owner["id"] and signed["merged"] == 1

        figures = (await phone.get("/api/puzzles")).json()
        assert figures["answered"] == 1
        assert figures["rating"] == pytest.approx(solved["rating"])
        assert (await phone.get("/api/training")).json()["cards"] == 2
        after = (await phone.get("/api/puzzles/next", params={"theme": "opening"})).json()
        assert after["puzzle"] is None, "its own position now"
        again = await phone.post(url, json={"type": "cube", "choice": "take"})
        assert again.json()["repeated"] is True, "the guest's answer is the account's"


async def test_a_guests_tournament_place_and_trophy_are_the_accounts(site: Site) -> None:
    """A guest wins an arena, then signs in to its account: the account's profile shows the
    arena's first place and its trophy (the arena's standings keep the guest's name)."""
    running, clock, sink = site
    async with browser(running) as phone, browser(running) as laptop, browser(running) as other:
        owner = (await me(phone))["id"]
        await phone.post("/api/auth/email", json={"token": await link_email(phone, sink, "t@x.io")})
        guest, loser = (await me(laptop))["id"], (await me(other))["id"]
        service = running.services.tournaments
        tid = await service.create_arena("Guests' arena", clock.now(), 30, 1, 90)
        assert tid is not None
        for http in (laptop, other):
            joined = await http.post(f"/api/tournaments/{tid}/join")
            assert joined.status_code == 200, joined.text
        await service.tick()
        room = (await laptop.get(f"/api/tournaments/{tid}")).json()["next_match"]["room"]
        for pid in (guest, loser):  # both open the table: the match starts
            await running.services.rooms.arrive(room, pid)
        await running.services.rooms.submit(room, loser, ForfeitMatch, None)
        await clock.advance(31 * 60)
        await service.tick()
        assert (await laptop.get(f"/api/tournaments/{tid}")).json()["winner"] == guest

        def places(profile: dict[str, Any]) -> list[tuple[str, int, int]]:
            return [(t["kind"], t["place"], t["players"]) for t in profile["tournaments"]]

        before = (await phone.get(f"/api/players/{owner}")).json()
        assert places(before) == [] and before["trophies"] == []

        await laptop.post("/api/auth/email-login", json={"email": "t@x.io", "lang": "en"})
        link = token_of(link_in(await sink.wait_for("t@x.io", 2)))
        signed = (await laptop.post("/api/auth/email", json={"token": link})).json()
        assert signed["signed_in"] == owner and signed["merged"] == 1

        after = (await other.get(f"/api/players/{owner}")).json()
        assert places(after) == [("arena", 1, 2)]
        assert after["trophies"] == [{"kind": "arena", "place": 1, "count": 1}]
        loser_profile = (await other.get(f"/api/players/{loser}")).json()
        assert places(loser_profile) == [("arena", 2, 2)]
