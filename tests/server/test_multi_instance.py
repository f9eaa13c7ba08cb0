"""Two server instances sharing one PostgreSQL database and one Redis bus.

Both run in this process on loopback ports, each with its own app, rooms service, caches and
locks, exactly as two processes would have; they share only the database and Redis (and, in
the clock test, an injected clock). Players on instance A and instance B play one match and see
the same events; concurrent intents, bots and clocks on both instances never duplicate or lose
an event. Skips without PostgreSQL or Redis (fails under ``CI=true``).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from bidak.match import event_from_json, replay, state_to_json
from bidak.server.play.queries import Append, Conflict
from bidak.server.shared.clocks import Clock, ManualClock
from tests.server import backends
from tests.server.harness import Client, Running, running_server, server_settings
from tests.server.scripted import Script, drive, play_all

pytestmark = pytest.mark.anyio
# The fixtures, under their own names (importing them by name would shadow the arguments).
postgres_url = backends.postgres_url
redis_url = backends.redis_url


@contextlib.asynccontextmanager
async def two_instances(
    tmp_path: Path, postgres_url: str, redis_url: str, clock: Clock | None = None, **extra: Any
) -> AsyncIterator[tuple[Running, Running]]:
    """Instances A and B on one database and one bus (started one after the other)."""
    extra.setdefault("redis_prefix", f"bidak-test-{secrets.token_hex(6)}:")  # one site
    async with contextlib.AsyncExitStack() as stack:
        runs = []
        for name in ("a", "b"):
            settings = server_settings(
                tmp_path / name,
                database_url=postgres_url,
                bus_url=redis_url,
                instance_id=name,
                **extra,
            )
            runs.append(await stack.enter_async_context(running_server(settings, clock)))
        yield runs[0], runs[1]


async def same_browser(
    stack: contextlib.AsyncExitStack, client: Client, running: Running
) -> Client:
    """The same player (same session cookie) on another instance."""
    twin = Client(running)
    twin.http.cookies.update(client.http.cookies)
    await stack.enter_async_context(twin)
    return twin


def shown(client: Client) -> list[dict[str, Any]]:
    """Every event this client was shown, snapshot ``missed`` lists included, in order."""
    return [
        item
        for message in client.messages
        for item in message.get("missed", []) + message.get("events", [])
    ]


async def stored_log(running: Running, match_id: str) -> list[dict[str, Any]]:
    """The stored log, checked: versions 1..n with no gap or repeat, replaying to the stored
    state (so no event was lost or applied twice)."""
    rows = await running.services.store.events(match_id)
    versions = [row.version for row in rows]
    assert versions == list(range(1, len(rows) + 1)), versions
    match = await running.services.store.match(match_id)
    assert match is not None and match.version == len(rows)
    assert state_to_json(replay(event_from_json(row.payload) for row in rows)) == match.state
    return [{"version": row.version, "event": row.payload} for row in rows]


def saw_each_once(client: Client, stored: list[dict[str, Any]]) -> None:
    """``client`` saw a tail of the stored log, each event once and in order."""
    seen = shown(client)
    assert seen, "saw nothing"
    start = seen[0]["version"] - 1
    assert seen == stored[start : start + len(seen)], [i["version"] for i in seen]
    assert seen[-1] == stored[-1]


async def test_players_on_two_instances_play_a_friend_match(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    async with (
        two_instances(tmp_path, postgres_url, redis_url) as (a, b),
        Client(a) as alice,
        Client(b) as bob,
        Client(b) as carol,
    ):
        room = (await alice.http.post("/api/rooms", json={"kind": "friend", "length": 3})).json()
        joined = (await bob.http.post(f"/api/rooms/{room['code']}/join")).json()
        assert joined["seat"] == 1 and joined["match_id"]  # instance B started the match
        await alice.join(room["code"])
        await bob.join(room["code"])
        await carol.join(room["code"], since=0)
        finals = await play_all(
            drive(alice, Script(11, double=0.3, drop=0.3), 0),
            drive(bob, Script(12, double=0.3, drop=0.3), 1),
            drive(carol, None, None),
        )
        assert finals[0]["score"] == finals[1]["score"] == finals[2]["score"]
        stored = await stored_log(a, joined["match_id"])
        assert shown(carol) == stored  # the spectator on B, from version 1
        for client in (alice, bob):
            saw_each_once(client, stored)
        assert {"doubled", "match_won"} <= {e["event"]["type"] for e in stored}


async def test_an_action_after_the_other_instances_needs_no_read_of_the_store(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    """Alice on A and Bob on B take turns: each instance takes the match up from the other's
    published note, so acting after the other player costs no read of the match back from the
    store (before: one read every other action, a fifth of a loaded process's reads)."""
    async with (
        two_instances(tmp_path, postgres_url, redis_url) as (a, b),
        Client(a) as alice,
        Client(b) as bob,
    ):
        room = (await alice.http.post("/api/rooms", json={"kind": "friend", "length": 3})).json()
        joined = (await bob.http.post(f"/api/rooms/{room['code']}/join")).json()
        await alice.join(room["code"])
        await bob.join(room["code"])
        reads: list[str] = []
        for running in (a, b):
            store = running.services.rooms.actor.store
            original = store.match

            async def counted(match_id: str, original: Any = original) -> Any:
                reads.append(match_id)
                return await original(match_id)

            store.match = counted  # type: ignore[method-assign]
        await play_all(drive(alice, Script(21), 0), drive(bob, Script(22), 1))
        stored = await stored_log(a, joined["match_id"])
        for client in (alice, bob):
            saw_each_once(client, stored)
        # A holds the match only from its first action on (B started it): one read there.
        assert len(stored) > 40 and len(reads) <= 2, (len(stored), len(reads))


async def test_new_guests_from_one_address_are_counted_over_both_instances(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    """N+1 first visits from one address, half to each instance and all at once: one 429."""
    allowed = 6
    clock = ManualClock()
    async with two_instances(
        tmp_path, postgres_url, redis_url, clock, guests_per_minute=allowed
    ) as (a, b):

        async def first_visit(running: Running) -> int:
            async with httpx.AsyncClient(base_url=running.base) as browser:
                return (await browser.get("/api/me")).status_code

        visits = [first_visit(a if i % 2 else b) for i in range(allowed + 1)]
        statuses = sorted(await asyncio.gather(*visits))
        assert statuses == [200] * allowed + [429]
        await clock.advance(60 / allowed)
        assert await first_visit(a) == 200, "the allowance comes back by the shared clock"
        assert await first_visit(b) == 429


DECISIONS = {"roll", "play", "double", "take", "drop", "accept_resign", "reject_resign"}
"""What only the player whose decision it is may send (resign, forfeit and autoplay excluded)."""


def deciding(client: Client) -> bool:
    """Whether the decision at the table is this client's player's."""
    assert client.table is not None
    return bool(set(client.table["allowed"]) & DECISIONS)


def choice(script: Script, client: Client) -> dict[str, Any]:
    assert client.table is not None
    action = script.choose(client.table)
    assert action is not None, client.table
    return action


async def caught_up(clients: list[Client], version: int) -> None:
    for client in clients:
        while client.version < version:
            await client.receive()


async def answers_to_intents(client: Client) -> list[dict[str, Any]]:
    """Errors this client got for what it sent: a ping comes back after every earlier intent
    was handled (a connection handles its messages one at a time)."""
    start = len(client.messages)
    await client.send({"type": "ping"})
    await client.until(lambda m: m["type"] == "pong")
    return [m for m in client.messages[start:] if m["type"] == "error"]


def count_conflicts(monkeypatch: pytest.MonkeyPatch, running: Running, tally: list[str]) -> None:
    """Note each time this instance's optimistic append loses to the other's."""
    store = running.services.store
    original = store.append

    async def append(change: Append) -> None:
        try:
            await original(change)
        except Conflict:
            tally.append(running.services.settings.instance_id)
            raise

    monkeypatch.setattr(store, "append", append)


async def test_the_same_intent_sent_to_both_instances_at_once_is_applied_once(
    tmp_path: Path, postgres_url: str, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    conflicts: list[str] = []
    async with contextlib.AsyncExitStack() as stack:
        a, b = await stack.enter_async_context(two_instances(tmp_path, postgres_url, redis_url))
        count_conflicts(monkeypatch, a, conflicts)
        count_conflicts(monkeypatch, b, conflicts)
        alice_a = await stack.enter_async_context(Client(a))
        bob_b = await stack.enter_async_context(Client(b))
        room = (await alice_a.http.post("/api/rooms", json={"kind": "friend", "length": 3})).json()
        room = (await bob_b.http.post(f"/api/rooms/{room['code']}/join")).json()
        alice_b = await same_browser(stack, alice_a, b)
        bob_a = await same_browser(stack, bob_b, a)
        seats = {0: (alice_a, alice_b), 1: (bob_a, bob_b)}
        everyone = [alice_a, alice_b, bob_a, bob_b]
        for client in everyone:
            await client.join(room["code"], since=0)
        scripts = {0: Script(21, double=0.3, drop=0.3), 1: Script(22, double=0.3, drop=0.3)}
        races = 0
        for _ in range(400):
            row = await a.services.store.match(room["match_id"])
            assert row is not None
            await caught_up(everyone, row.version)
            if row.finished:
                break
            seat = next(s for s, (c, _) in seats.items() if deciding(c))
            on_a, on_b = seats[seat]
            assert on_a.table == on_b.table and on_a.version == on_b.version == row.version
            intent = {
                "type": "intent",
                "action": choice(scripts[seat], on_a),
                "version": row.version,
            }
            await asyncio.gather(on_a.send(intent), on_b.send(intent))
            refused = await answers_to_intents(on_a) + await answers_to_intents(on_b)
            assert [e["code"] for e in refused] == ["stale"], refused
            races += 1
        else:
            pytest.fail("the match did not end")
        stored = await stored_log(b, room["match_id"])
        for client in everyone:
            assert shown(client) == stored  # each from version 1, every event exactly once
    assert races > 10
    assert conflicts, "the losers of the races reached the store's version check"


async def test_a_late_message_from_the_other_instance_leaves_no_gap(
    tmp_path: Path, postgres_url: str, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Instance A publishes late (a slow network, a busy loop); meanwhile Bob, on B, reloads the
    table, acts, and B publishes at once. Carol, watching on B, hears B's events before A's:
    she must still be shown every event, in order, once."""
    async with (
        two_instances(tmp_path, postgres_url, redis_url) as (a, b),
        Client(a) as alice,
        Client(b) as bob,
        Client(b) as carol,
    ):
        room = (await alice.http.post("/api/rooms", json={"kind": "friend", "length": 3})).json()
        room = (await bob.http.post(f"/api/rooms/{room['code']}/join")).json()
        for client in (alice, bob, carol):
            await client.join(room["code"], since=0)
        publish = a.services.bus.publish

        async def late(channel: str, message: dict[str, Any]) -> None:
            await asyncio.sleep(0.5)
            await publish(channel, message)

        monkeypatch.setattr(a.services.bus, "publish", late)
        script, provoked = Script(31), False
        for _ in range(40):
            row = await a.services.store.match(room["match_id"])
            assert row is not None
            await caught_up([alice, bob, carol], row.version)
            if provoked:
                break
            player = alice if deciding(alice) else bob
            await player.act(choice(script, player))
            if player is bob:
                continue
            # A stored Alice's action but has not published it yet. Bob comes back on B and
            # reads the table from the store: if the decision is now his, he acts at once.
            await asyncio.sleep(0.1)
            await bob.ws.close()
            bob.ws = None
            await bob.join(room["code"], since=bob.version)
            if deciding(bob):
                await bob.act(choice(script, bob))
                provoked = True
        assert provoked
        # Bob's last intent may still be on its way to the store (the loop read the match
        # before it was stored): once it is answered, everyone must catch up with what is.
        await answers_to_intents(bob)
        row = await a.services.store.match(room["match_id"])
        assert row is not None
        await caught_up([alice, bob, carol], row.version)
        stored = await stored_log(a, room["match_id"])
        assert shown(carol) == stored[: len(shown(carol))] and shown(carol)[-1] == stored[-1]
        saw_each_once(alice, stored)


async def advanced(running: Running, match_id: str, version: int) -> int:
    """Wait (up to 10 s) until the stored match is past ``version``; the new version."""
    for _ in range(1000):
        row = await running.services.store.match(match_id)
        assert row is not None
        if row.version > version:
            return row.version
        await asyncio.sleep(0.01)
    raise AssertionError(f"the match stayed at version {version}")


def kinds(stored: list[dict[str, Any]]) -> list[str]:
    return [item["event"]["type"] for item in stored]


async def test_a_clock_armed_on_both_instances_times_out_once(
    tmp_path: Path, postgres_url: str, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each time instance B (re)starts it re-arms the clock of every unfinished match, which
    instance A has armed too: at the deadline both act, and exactly one timeout is stored."""
    clock = ManualClock()
    settings = {
        name: server_settings(
            tmp_path / name, database_url=postgres_url, bus_url=redis_url, instance_id=name
        )
        for name in ("a", "b")
    }
    conflicts: list[str] = []
    async with running_server(settings["a"], clock) as a, Client(a) as alice, Client(a) as bob:
        count_conflicts(monkeypatch, a, conflicts)
        room = (
            await alice.http.post(
                "/api/rooms",
                json={"kind": "friend", "move_seconds": 30, "timeout_policy": "three_strikes"},
            )
        ).json()
        room = (await bob.http.post(f"/api/rooms/{room['code']}/join")).json()
        await alice.join(room["code"], since=0)
        await bob.join(room["code"], since=0)
        for _ in range(3):
            async with running_server(settings["b"], clock) as b:
                count_conflicts(monkeypatch, b, conflicts)
                before = await stored_log(a, room["match_id"])
                await clock.advance(31)
                await advanced(a, room["match_id"], len(before))
                await a.services.rooms.settle()
                await b.services.rooms.settle()
                after = await stored_log(a, room["match_id"])
                assert kinds(after).count("timed_out") == kinds(before).count("timed_out") + 1
        stored = await stored_log(a, room["match_id"])
        await caught_up([alice, bob], len(stored))
        assert shown(alice) == shown(bob) == stored
    assert conflicts, "both instances' clocks reached the store"


async def test_a_bot_armed_on_both_instances_acts_once(
    tmp_path: Path, postgres_url: str, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A practice match: each bot turn, B (re)starts and re-arms the bot that A has waiting too;
    both decide, one action is stored."""
    clock = ManualClock()
    settings = {
        name: server_settings(
            tmp_path / name,
            database_url=postgres_url,
            bus_url=redis_url,
            instance_id=name,
            bot_delay=1.0,
        )
        for name in ("a", "b")
    }
    conflicts: list[str] = []
    async with running_server(settings["a"], clock) as a, Client(a) as guest:
        count_conflicts(monkeypatch, a, conflicts)
        room = (
            await guest.http.post("/api/rooms", json={"kind": "practice", "level": "beginner"})
        ).json()
        await guest.join(room["code"], since=0)
        script, bot_turns = Script(41), 0
        while bot_turns < 3:
            await a.services.rooms.settle()
            row = await a.services.store.match(room["match_id"])
            assert row is not None and not row.finished
            await caught_up([guest], row.version)
            if deciding(guest):
                await guest.act(choice(script, guest))
                await advanced(a, room["match_id"], row.version)
                continue
            async with running_server(settings["b"], clock) as b:  # the bot's turn
                count_conflicts(monkeypatch, b, conflicts)
                await clock.advance(1.0)
                await advanced(a, room["match_id"], row.version)
                await a.services.rooms.settle()
                await b.services.rooms.settle()
                bot_turns += 1
        stored = await stored_log(a, room["match_id"])
        await caught_up([guest], len(stored))
        assert shown(guest) == stored
    assert conflicts, "both instances' bots reached the store"
