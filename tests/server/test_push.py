"""Web Push (issue 38), received for real: a stand-in push service on 127.0.0.1 takes the
server's POSTs, and each test browser decrypts its pushes with its own keys (aes128gcm) and
checks the VAPID signature, as a browser and a push service would. A correspondence turn is
pushed after the delay, not before; not while the player is at that table; a subscription the
push service says is gone (410, 404) is dropped; a failing push service is tried again, then
given up; a kind switched off is not pushed; signing out and deleting the account end the
pushes. On SQLite and PostgreSQL where the rows matter; the clock is a ManualClock."""

from __future__ import annotations

from collections.abc import AsyncIterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from bidak.server.notifications import push_queries
from bidak.server.notifications.push_rules import RETRIES
from bidak.server.notifications.tables import PushDueRow
from bidak.server.shared.clocks import ManualClock
from tests.server.backends import database_url, postgres_url
from tests.server.harness import Client, Running, running_server, server_settings
from tests.server.push_service import Browser, PushService, push_service, verify_vapid

__all__ = ["database_url", "postgres_url"]
pytestmark = pytest.mark.anyio

DELAY = 20.0


def _settings(tmp_path: Path, url: str | None = None, **more: Any) -> Any:
    values: dict[str, Any] = {"push_allow_http": True, "arena_every_minutes": 0, **more}
    if url is not None:
        values["database_url"] = url
    return server_settings(tmp_path, **values)


@pytest.fixture
async def service() -> AsyncIterator[PushService]:
    async with push_service() as running:
        yield running


async def _me(client: Client) -> str:
    found: str = (await client.http.get("/api/me")).json()["id"]
    return found


async def _subscribe(client: Client, browser: Browser, language: str = "en") -> None:
    answer = await client.http.post("/api/push/subscriptions", json=browser.subscription(language))
    assert answer.status_code == 200, answer.text


async def _subscriptions(running: Running, player_id: str) -> int:
    return await running.services.db.read(partial(push_queries.count, player_id=player_id))


async def _due(running: Running) -> int:
    table = PushDueRow.__table__
    count = await running.services.db.read(
        lambda c: c.execute(select(func.count()).select_from(table)).scalar_one()
    )
    return int(count)


async def _pass(clock: ManualClock, running: Running, seconds: float) -> None:
    await clock.advance(seconds)
    await running.services.push.settle()


async def _correspondence(alice: Client, bob: Client) -> tuple[str, Client]:
    """A correspondence match between them: its room, and who must decide first."""
    made = await alice.http.post(
        "/api/rooms", json={"kind": "friend", "length": 3, "days_per_move": 2}
    )
    code: str = made.json()["code"]
    assert (await bob.http.post(f"/api/rooms/{code}/join")).status_code == 200
    await alice.running.services.rooms.settle()  # the turn told, its pushes due stored
    for client in (alice, bob):
        notes = (await client.http.get("/api/notifications")).json()["notes"]
        if [n["kind"] for n in notes] == ["turn"]:
            return code, client
    raise AssertionError("nobody was told it is their turn")


async def test_a_turn_is_pushed_after_the_delay_encrypted_and_signed(
    database_url: str, tmp_path: Path, service: PushService
) -> None:
    clock = ManualClock()
    async with running_server(_settings(tmp_path, database_url), clock) as running:
        async with Client(running) as alice, Client(running) as bob:
            browsers = {alice: Browser(service), bob: Browser(service)}
            await _subscribe(alice, browsers[alice], "fi")
            await _subscribe(bob, browsers[bob], "fi")
            room, turn = await _correspondence(alice, bob)
            other = bob if turn is alice else alice

            await _pass(clock, running, DELAY - 1)
            assert service.received == []  # still within the delay
            await _pass(clock, running, 2)
            await service.wait(1)
            [push] = service.to(browsers[turn])
            assert service.to(browsers[other]) == []

            payload = browsers[turn].read(push)
            assert payload["kind"] == "turn" and payload["room"] == room
            assert payload["url"] == f"/#/room/{room}"
            assert payload["body"] == "Sinun vuorosi kirjeottelussa" and payload["title"]
            assert len(push.body) < 3000
            claims = verify_vapid(push, browsers[turn].endpoint, clock.now())
            key = (await alice.http.get("/api/push/key")).json()["key"]
            assert claims["k"] == key and claims["sub"].startswith("mailto:")
            assert push.headers["urgency"] == "high" and push.headers["ttl"] == "86400"
            assert await _due(running) == 0
            assert running.services.push.counts["sent"] == 1

            # Read in the page before the delay: no push.
            await running.services.notifications.tell("over:x", await _me(other), "over", room)
            assert (await other.http.post("/api/notifications/read", json={})).status_code == 200
            await _pass(clock, running, DELAY + 1)
            assert service.to(browsers[other]) == [] and await _due(running) == 0


async def test_no_push_while_at_the_table_and_a_push_once_away(
    tmp_path: Path, service: PushService
) -> None:
    clock = ManualClock()
    async with running_server(_settings(tmp_path), clock) as running:
        async with Client(running) as alice, Client(running) as bob:
            browsers = {alice: Browser(service), bob: Browser(service)}
            await _subscribe(alice, browsers[alice])
            await _subscribe(bob, browsers[bob])
            room, turn = await _correspondence(alice, bob)
            await turn.join(room)  # looking at the match
            await _pass(clock, running, DELAY + 1)
            assert service.received == []
            assert running.services.push.counts["skipped"] == 1

            # Another table's news still goes; once they left this one, its news goes too.
            me = await _me(turn)
            notes = running.services.notifications
            await notes.tell("over:elsewhere", me, "over", "ELSEWHERE")
            await turn.ws.close()
            turn.ws = None
            await notes.tell("time:here", me, "time", room)
            await _pass(clock, running, DELAY + 1)
            await service.wait(2)
            pushed = sorted(browsers[turn].read(p)["kind"] for p in service.to(browsers[turn]))
            assert pushed == ["over", "time"]


async def test_gone_subscriptions_are_dropped_and_failures_tried_again_then_given_up(
    database_url: str, tmp_path: Path, service: PushService
) -> None:
    clock = ManualClock()
    async with running_server(_settings(tmp_path, database_url), clock) as running:
        async with Client(running) as alice:
            me = await _me(alice)
            gone, missing, failing = Browser(service), Browser(service), Browser(service)
            for browser in (gone, missing, failing):
                await _subscribe(alice, browser)
            service.answers[gone.path] = [410]
            service.answers[missing.path] = [404]
            service.answers[failing.path] = [500] * 10
            assert await _subscriptions(running, me) == 3

            await running.services.notifications.tell("moderator:1", me, "moderator")
            await _pass(clock, running, DELAY + 1)
            await service.wait(3)
            assert await _subscriptions(running, me) == 1  # the 410 and the 404 are dropped
            assert len(service.to(failing)) == 1 and await _due(running) == 1
            for wait in RETRIES:
                await _pass(clock, running, wait - 1)
                assert len(service.to(failing)) == 1 + RETRIES.index(wait)
                await _pass(clock, running, 2)
                await service.wait(3 + 1 + RETRIES.index(wait))
            assert len(service.to(failing)) == 1 + len(RETRIES)
            assert await _due(running) == 0  # given up
            counts = running.services.push.counts
            assert counts["gone"] == 2 and counts["given_up"] == 1
            assert counts["failed"] == len(RETRIES)
            assert await _subscriptions(running, me) == 1  # a failing service is no gone one
            assert len(service.to(gone)) == 1 and len(service.to(missing)) == 1


async def test_a_kind_switched_off_is_not_pushed(tmp_path: Path, service: PushService) -> None:
    clock = ManualClock()
    async with running_server(_settings(tmp_path), clock) as running:
        async with Client(running) as alice:
            me, browser = await _me(alice), Browser(service)
            await _subscribe(alice, browser)
            answer = await alice.http.put(
                "/api/notifications/settings", json={"channel": "push", "kind": "turn", "on": False}
            )
            assert answer.status_code == 200
            notes = running.services.notifications
            await notes.tell("turn:1", me, "turn", "ROOM1")
            await notes.tell("over:1", me, "over", "ROOM1")
            await _pass(clock, running, DELAY + 1)
            await service.wait(1)
            assert [browser.read(p)["kind"] for p in service.to(browser)] == ["over"]
            # Switched off after the notification but before its push: not pushed either.
            await notes.tell("over:2", me, "over", "ROOM2")
            await alice.http.put(
                "/api/notifications/settings", json={"channel": "push", "kind": "over", "on": False}
            )
            await _pass(clock, running, DELAY + 1)
            assert len(service.to(browser)) == 1 and await _due(running) == 0


async def test_subscriptions_are_checked_capped_and_end_with_the_session(
    database_url: str, tmp_path: Path, service: PushService
) -> None:
    clock = ManualClock()
    async with running_server(_settings(tmp_path, database_url), clock) as running:
        async with Client(running) as alice, Client(running) as bob:
            me = await _me(alice)
            browser = Browser(service)
            good = browser.subscription()
            for change, code in (
                ({"endpoint": "http://example.com/push/1"}, "bad_endpoint"),
                ({"endpoint": "https://10.0.0.1/push/1"}, "unknown_service"),
                ({"endpoint": "https://evil.example/push/1"}, "unknown_service"),
                ({"endpoint": "https://u:p@fcm.googleapis.com/x"}, "bad_endpoint"),
                ({"keys": {"p256dh": "AAAA", "auth": good["keys"]["auth"]}}, "bad_keys"),
                ({"keys": {"p256dh": good["keys"]["p256dh"], "auth": "c2hvcnQ"}}, "bad_keys"),
            ):
                answer = await alice.http.post("/api/push/subscriptions", json={**good, **change})
                assert answer.status_code == 422 and answer.json()["detail"]["code"] == code
            for body in ({**good, "endpoint": "x" * 2001}, {**good, "extra": 1}, {}):
                answer = await alice.http.post("/api/push/subscriptions", json=body)
                assert answer.status_code == 422
            assert await _subscriptions(running, me) == 0

            # Eleven browsers: the oldest goes.
            many = [Browser(service) for _ in range(11)]
            for one in many:
                await _subscribe(alice, one)
                await clock.advance(1)
            assert await _subscriptions(running, me) == 10
            await running.services.notifications.tell("over:cap", me, "over")
            await _pass(clock, running, DELAY + 1)
            await service.wait(10)
            assert service.to(many[0]) == [] and all(service.to(one) for one in many[1:])

            # Another player registering a browser takes it over; dropping is one's own only.
            await _subscribe(bob, many[1])
            assert await _subscriptions(running, me) == 9
            answer = await alice.http.request(
                "DELETE", "/api/push/subscriptions", json={"endpoint": many[1].endpoint}
            )
            assert answer.status_code == 200
            assert await _subscriptions(running, await _me(bob)) == 1
            answer = await alice.http.request(
                "DELETE", "/api/push/subscriptions", json={"endpoint": many[2].endpoint}
            )
            assert await _subscriptions(running, me) == 8

            # Signed out here: this browser's subscriptions are no longer pushed to, and go.
            assert (await alice.http.post("/api/auth/logout")).status_code == 204
            await running.services.notifications.tell("over:after", me, "over")
            await _pass(clock, running, DELAY + 1)
            assert len(service.received) == 10 and await _subscriptions(running, me) == 0

            # Deleting the account takes its subscriptions, settings and notifications.
            bob_id = await _me(bob)
            await bob.http.put(
                "/api/notifications/settings", json={"channel": "push", "kind": "over", "on": False}
            )
            assert (await bob.http.request("DELETE", "/api/me", json={"confirm": True})).is_success
            assert await _subscriptions(running, bob_id) == 0
            assert await running.services.notifications.newest(bob_id) == []
            assert (await running.services.notifications.settings(bob_id))["push"]["over"]


async def test_a_vapid_key_from_the_setting_signs_the_pushes(
    tmp_path: Path, service: PushService
) -> None:
    from bidak.server.notifications import Vapid
    from bidak.server.notifications.vapid import new_private_key

    key, clock = new_private_key(), ManualClock()
    settings = _settings(tmp_path, vapid_private_key=key, vapid_subject="https://bidak.example")
    async with running_server(settings, clock) as running:
        async with Client(running) as alice:
            public = (await alice.http.get("/api/push/key")).json()["key"]
            assert public == Vapid(key, "mailto:x@y.z").public_key
            browser = Browser(service)
            await _subscribe(alice, browser)
            await running.services.notifications.tell("over:1", await _me(alice), "over")
            await _pass(clock, running, DELAY + 1)
            await service.wait(1)
            claims = verify_vapid(service.received[0], browser.endpoint, clock.now())
            assert claims["k"] == public and claims["sub"] == "https://bidak.example"
