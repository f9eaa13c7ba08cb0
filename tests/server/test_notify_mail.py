"""E-mail notifications (issue 38), received over real SMTP (aiosmtpd): the daily digest of the
games waiting on a player comes once at the configured hour, with each game and its time left,
only to players who opted in and have something waiting, once even after a second sweep, a
restart or two servers on one PostgreSQL database; a "time almost up" letter at 80% of a
correspondence allowance; every letter carries a one-click unsubscribe (RFC 8058) whose POST,
without cookies or Origin, switches that kind off, while a GET changes nothing and a forged
token is a clear 400. No letter goes to a player without an address."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from sqlalchemy import update

from bidak.correspondence import DAY
from bidak.server.notifications import Told
from bidak.server.notifications.mailer import Mailer
from bidak.server.shared.clocks import ManualClock
from bidak.server.shared.settings import Settings
from bidak.server.shared.store.models import PlayerRow
from tests.server import backends
from tests.server.harness import Client, Running, link_addresses, running_server, server_settings
from tests.server.smtp_sink import SmtpSink, smtp_sink

__all__ = ["smtp_sink"]
pytestmark = pytest.mark.anyio
database_url = backends.database_url
postgres_url = backends.postgres_url
redis_url = backends.redis_url

NOW = 1_800_000_000.0
"""2027-01-15 08:00 UTC: the digest hour of these tests, 09:00, is an hour away."""
HOUR = 3600.0
SETTINGS = "/api/notifications/settings"
ONE_CLICK = {"Content-Type": "application/x-www-form-urlencoded"}


def _settings(tmp_path: Path, url: str, sink: SmtpSink, **more: Any) -> Settings:
    return server_settings(
        tmp_path,
        database_url=url,
        smtp_url=sink.url,
        digest_hour=9,
        arena_every_minutes=0,
        knockout_every_minutes=0,
        **more,
    )


@pytest.fixture
async def site(
    database_url: str, tmp_path: Path, smtp_sink: SmtpSink
) -> AsyncIterator[tuple[Running, ManualClock, Settings]]:
    clock = ManualClock(NOW)
    settings = _settings(tmp_path, database_url, smtp_sink)
    async with running_server(settings, clock) as running:
        yield running, clock, settings


def mailer(running: Running) -> Mailer:
    found = running.services.mailer
    assert found is not None
    return found


async def quiet(*sites: Running) -> None:
    """Every digest run under way ended and every letter handed over delivered."""
    for running in sites:
        await mailer(running).settle()
        await running.services.rooms.settle()
        await mailer(running).outbox.flush()


async def player_id(client: Client) -> str:
    found: str = (await client.http.get("/api/me")).json()["id"]
    return found


async def opt_in(client: Client, kind: str, on: bool = True) -> None:
    answer = await client.http.put(SETTINGS, json={"channel": "email", "kind": kind, "on": on})
    assert answer.status_code == 200, answer.text


async def email_settings(client: Client) -> dict[str, bool]:
    found: dict[str, bool] = (await client.http.get(SETTINGS)).json()["email"]
    return found


async def correspondence(alice: Client, bob: Client, days: int) -> tuple[str, Client, Client]:
    """A correspondence match between the two: its room, who it waits on, and the other."""
    made = await alice.http.post(
        "/api/rooms", json={"kind": "friend", "length": 3, "days_per_move": days}
    )
    code: str = made.json()["code"]
    assert (await bob.http.post(f"/api/rooms/{code}/join")).status_code == 200
    games = (await alice.http.get("/api/games")).json()["games"]
    waits_on_alice = next(g for g in games if g["room"] == code)["yours"]
    return (code, alice, bob) if waits_on_alice else (code, bob, alice)


def text_of(letter: EmailMessage) -> str:
    body = letter.get_body(("plain",))
    assert body is not None
    found: str = body.get_content()
    return found


def unsubscribe_path(letter: EmailMessage) -> str:
    """The path and query of the letter's List-Unsubscribe address (the test server listens
    on a port of its own, not the configured one the letter names)."""
    header = str(letter["List-Unsubscribe"])
    assert header.startswith("<") and header.endswith(">"), header
    parts = urlsplit(header[1:-1])
    assert parts.path == "/api/notifications/unsubscribe" and parts.query.startswith("t=")
    return f"{parts.path}?{parts.query}"


def assert_one_click(letter: EmailMessage) -> str:
    path = unsubscribe_path(letter)
    assert letter["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    text = text_of(letter)
    assert path in text, "the body shows the unsubscribe link too"
    assert "/#/account" in text, "and the notification settings"
    return path


async def test_the_digest_comes_once_at_the_hour_to_whom_a_game_waits_on(
    site: tuple[Running, ManualClock, Settings], smtp_sink: SmtpSink
) -> None:
    running, clock, settings = site
    async with (
        Client(running) as alice,
        Client(running) as bob,
        Client(running) as carol,
        Client(running) as dave,
        Client(running) as erin,
    ):
        ids = {c: await player_id(c) for c in (alice, bob, carol, dave, erin)}
        await link_addresses(running, *ids.values())
        code, waiting, other = await correspondence(alice, bob, days=3)
        await opt_in(waiting, "turn")
        # Carol and Dave have a game waiting on one of them, but neither opted in; Erin opted
        # in and has nothing waiting; the other player of the first match neither.
        await correspondence(carol, dave, days=3)
        await opt_in(erin, "turn")
        names = {c: (await c.http.get("/api/me")).json()["name"] for c in (alice, bob)}

        assert await mailer(running).sweep() == 0, "08:00: the digest hour is to come"
        await clock.advance(HOUR)
        letter = await smtp_sink.wait_for(f"{ids[waiting]}@example.test")
        await quiet(running)
        assert letter["Subject"] == "Bidak: a game waits for your move"
        text = text_of(letter)
        assert f"Hello {names[waiting]}," in text
        assert f"{names[other]}: 0\u20130, match to 3, 2 days 23 hours left" in text
        assert f"/#/r/{code}" in text
        assert f"/#/r/{code}" in letter.get_body(("html",)).get_content()  # type: ignore[union-attr]
        assert_one_click(letter)
        assert len(smtp_sink.letters) == 1, "nobody else: not opted in, or nothing waiting"

        # An hour later, a second run sends nothing; nor does a restarted process.
        await clock.advance(HOUR)
        assert await mailer(running).sweep() == 0
        async with running_server(settings, clock) as again:
            await quiet(again)
            assert await mailer(again).sweep() == 0
            assert mailer(again).sent == 0
        await quiet(running)
        assert len(smtp_sink.letters) == 1

        # The next day's digest comes at the hour, with a day less left.
        await clock.advance(22 * HOUR)
        assert len(smtp_sink.letters) == 1
        await clock.advance(HOUR)
        second = await smtp_sink.wait_for(f"{ids[waiting]}@example.test", 2)
        assert "1 day 23 hours left" in text_of(second)
        await quiet(running)
        assert len(smtp_sink.letters) == 2


async def test_two_servers_on_one_database_send_one_digest(
    tmp_path: Path, postgres_url: str, redis_url: str, smtp_sink: SmtpSink
) -> None:
    clock = ManualClock(NOW)
    prefix = f"bidak-test-{secrets.token_hex(6)}:"
    settings = {
        name: _settings(
            tmp_path / name,
            postgres_url,
            smtp_sink,
            bus_url=redis_url,
            instance_id=name,
            redis_prefix=prefix,
        )
        for name in ("a", "b")
    }
    async with running_server(settings["a"], clock) as a, Client(a) as alice, Client(a) as bob:
        await link_addresses(a, await player_id(alice), await player_id(bob))
        _, waiting, _ = await correspondence(alice, bob, days=2)
        await opt_in(waiting, "turn")
        address = f"{await player_id(waiting)}@example.test"
        async with running_server(settings["b"], clock) as b:
            await clock.advance(HOUR)  # both processes run the digest at 09:00
            await smtp_sink.wait_for(address)
            await quiet(a, b)
            assert await mailer(a).sweep() == 0 and await mailer(b).sweep() == 0
            await quiet(a, b)
            assert len(smtp_sink.to(address)) == 1
            assert mailer(a).sent + mailer(b).sent == 1


async def test_time_almost_up_letter_and_one_click_unsubscribe(
    site: tuple[Running, ManualClock, Settings], smtp_sink: SmtpSink
) -> None:
    running, clock, _ = site
    async with Client(running) as alice, Client(running) as bob:
        await link_addresses(running, await player_id(alice), await player_id(bob))
        code, late, other = await correspondence(alice, bob, days=1)
        await opt_in(late, "time")
        await opt_in(late, "turn")
        late_id, other_name = await player_id(late), (await other.http.get("/api/me")).json()
        address = f"{late_id}@example.test"
        await clock.advance(HOUR)  # the 09:00 digest
        await smtp_sink.wait_for(address)
        await clock.advance(0.79 * DAY - HOUR)
        await quiet(running)
        assert [m["Subject"] for m in smtp_sink.to(address)] == [
            "Bidak: a game waits for your move"
        ]
        await clock.advance(0.02 * DAY)
        letter = await smtp_sink.wait_for(address, 2)
        await quiet(running)
        assert letter["Subject"] == f"Bidak: your time against {other_name['name']} is almost up"
        text = text_of(letter)
        assert "4 hours 33 minutes left" in text and f"/#/r/{code}" in text
        path = assert_one_click(letter)

        async with httpx.AsyncClient(base_url=running.base) as provider:  # no cookie, no Origin
            page = await provider.get(path)
            assert page.status_code == 200 and 'method="post"' in page.text
            assert page.headers["content-type"].startswith("text/html")
            assert (await email_settings(late))["time"] is True, "a GET unsubscribes nobody"
            assert "set-cookie" not in page.headers

            done = await provider.post(
                path, content=b"List-Unsubscribe=One-Click", headers=ONE_CLICK
            )
            assert done.status_code == 200, done.text
            assert "set-cookie" not in done.headers
        assert await email_settings(late) == {"turn": True, "time": False}

        # No further "time" letter: the setting is off.
        assert await running.services.notifications.tell("time:test:2", late_id, "time", code)
        await quiet(running)
        assert len(smtp_sink.to(address)) == 2

        # Switched on again, but the address unlinked meanwhile: no letter either.
        await opt_in(late, "time")
        table = PlayerRow.__table__
        await running.services.db.write(
            lambda c: c.execute(update(table).where(table.c.id == late_id).values(email=None))
        )
        assert await running.services.notifications.tell("time:test:3", late_id, "time", code)
        await quiet(running)
        assert len(smtp_sink.to(address)) == 2


async def test_one_notification_is_one_letter_whoever_hands_it_over_and_how_often(
    site: tuple[Running, ManualClock, Settings], smtp_sink: SmtpSink
) -> None:
    running, clock, settings = site
    async with Client(running) as alice, Client(running) as bob:
        await link_addresses(running, await player_id(alice), await player_id(bob))
        code, late, _ = await correspondence(alice, bob, days=2)
        await opt_in(late, "time")
        told = Told("time:retried", await player_id(late), "time", code, clock.now())
        async with running_server(settings, clock) as other:  # a second process
            await asyncio.gather(
                mailer(running).tell(told), mailer(other).tell(told), mailer(running).tell(told)
            )
            await mailer(other).tell(told)  # a retry later
            await quiet(running, other)
            assert mailer(running).sent + mailer(other).sent == 1
        assert len(smtp_sink.letters) == 1
        assert "Bidak: your time against" in str(smtp_sink.letters[0]["Subject"])


async def test_a_forged_or_bad_unsubscribe_is_a_clear_400_and_changes_nothing(
    site: tuple[Running, ManualClock, Settings],
) -> None:
    running, _, settings = site
    async with Client(running) as alice:
        alice_id = await player_id(alice)
        await link_addresses(running, alice_id)
        await opt_in(alice, "time")
        token = mailer(running).one_click.sign(alice_id, "time")
        path = "/api/notifications/unsubscribe"
        forged = [
            token[:-2] + ("AA" if not token.endswith("AA") else "BB"),  # the signature changed
            token.replace(".time.", ".turn."),  # another kind under the same signature
            "1.eA.time.AAAAAAAAAAAAAAAAAAAAAA",  # another player, made up
            "garbage",
            "\u00e4" * 10,
            "",
        ]
        async with httpx.AsyncClient(base_url=running.base) as provider:
            for bad in forged:
                posted = await provider.post(
                    path,
                    params={"t": bad},
                    content=b"List-Unsubscribe=One-Click",
                    headers=ONE_CLICK,
                )
                assert posted.status_code == 400, (bad, posted.text)
                assert "not valid" in posted.text
                assert (await provider.get(path, params={"t": bad})).status_code == 400
            for body in (b"", b"List-Unsubscribe=Yes", b"a=1&b=2&c=3&d=4&e=5&f=6"):
                answer = await provider.post(path, params={"t": token}, content=body)
                assert answer.status_code == 400, body
            assert (
                await provider.post(path, content=b"List-Unsubscribe=One-Click")
            ).status_code == 422
            assert (await provider.get(path, params={"t": "x" * 500})).status_code == 422
            # The real token in another language's browser: the page speaks it.
            page = await provider.get(path, params={"t": token}, headers={"Accept-Language": "fi"})
            assert page.status_code == 200 and 'lang="fi"' in page.text
        assert (await email_settings(alice))["time"] is True
        assert settings.secret_key  # the tokens hang on it (docs/operating.md)
