"""Friends, challenges and blocks (issue 38, part 3) on SQLite and PostgreSQL: follow and the
friends list with who is online and at which table; a challenge accepted makes one room with
both seats taken (also when two accepts come at once), a declined one tells the challenger,
an unanswered one expires after three days on the server's clock; the limits; and a block:
no challenge, no follow, no table talk, no quick match pairing between the two."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bidak.challenges import EXPIRES_AFTER, OPEN_MAX, PER_HOUR
from bidak.server.shared.clocks import ManualClock
from tests.server.backends import database_url, postgres_url
from tests.server.harness import Client, Running, running_server, server_settings

__all__ = ["database_url", "postgres_url"]
pytestmark = pytest.mark.anyio

HOUR = 3600.0
CORRESPONDENCE = {"length": 3, "days_per_move": 1}


@pytest.fixture
async def site(database_url: str, tmp_path: Path) -> AsyncIterator[tuple[Running, ManualClock]]:
    clock = ManualClock()
    settings = server_settings(
        tmp_path, database_url=database_url, arena_every_minutes=0, knockout_every_minutes=0
    )
    async with running_server(settings, clock) as running:
        yield running, clock


async def me(client: Client) -> str:
    found: str = (await client.http.get("/api/me")).json()["id"]
    return found


async def challenge(client: Client, to: str, **options: Any) -> Any:
    return await client.http.post("/api/challenges", json={"to": to, **(options or CORRESPONDENCE)})


async def notes(client: Client) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = (await client.http.get("/api/notifications")).json()["notes"]
    return found


def code_of(answer: Any) -> str:
    found: str = answer.json()["detail"]["code"]
    return found


async def test_follow_shows_friends_online_and_at_their_table(
    site: tuple[Running, ManualClock],
) -> None:
    running, clock = site
    async with Client(running) as alice, Client(running) as bob, Client(running) as carol:
        bob_id, carol_id = await me(bob), await me(carol)
        assert (await alice.http.put(f"/api/friends/{bob_id}")).json()["following"] is True
        assert (await alice.http.put(f"/api/friends/{bob_id}")).status_code == 200  # again
        assert (await alice.http.put(f"/api/friends/{carol_id}")).status_code == 200
        assert (await alice.http.put(f"/api/friends/{await me(alice)}")).status_code == 400
        assert (await alice.http.put("/api/friends/nobody")).status_code == 404
        listed = (await alice.http.get("/api/friends")).json()["friends"]
        assert {f["id"] for f in listed} == {bob_id, carol_id}
        assert all(f["online"] and not f["playing"] and f["room"] is None for f in listed)

        # Bob plays a live match with Carol; an hour later only Bob has asked anything since.
        room = (await bob.http.post("/api/rooms", json={"kind": "friend", "length": 3})).json()[
            "code"
        ]
        assert (await carol.http.post(f"/api/rooms/{room}/join")).json()["seat"] == 1
        await clock.advance(HOUR)
        await bob.http.get("/api/me")
        friends = {f["id"]: f for f in (await alice.http.get("/api/friends")).json()["friends"]}
        assert friends[bob_id]["online"] and friends[bob_id]["room"] == room
        assert friends[bob_id]["playing"] and friends[carol_id]["playing"]
        assert not friends[carol_id]["online"]

        found = (await alice.http.get("/api/friends/search", params={"name": "gu"})).json()
        assert await me(alice) not in {p["id"] for p in found["players"]}
        assert (await alice.http.delete(f"/api/friends/{bob_id}")).json()["following"] is False
        assert [f["id"] for f in (await alice.http.get("/api/friends")).json()["friends"]] == [
            carol_id
        ]


async def test_a_challenge_accepted_makes_one_room_with_both_seats(
    site: tuple[Running, ManualClock],
) -> None:
    running, _ = site
    async with Client(running) as alice, Client(running) as bob:
        alice_id, bob_id = await me(alice), await me(bob)
        made = await challenge(alice, bob_id)
        assert made.status_code == 201, made.text
        made_id = made.json()["id"]
        assert made.json()["options"]["days_per_move"] == 1
        assert code_of(await challenge(alice, bob_id)) == "already_challenged"
        assert (await bob.http.get("/api/notifications/unread")).json() == {"unread": 1}
        (note,) = await notes(bob)
        assert note["kind"] == "challenge" and note["room"] is None
        waiting = (await bob.http.get("/api/challenges")).json()
        assert [c["id"] for c in waiting["incoming"]] == [made_id] and waiting["outgoing"] == []
        assert waiting["incoming"][0]["player_id"] == alice_id
        assert (await bob.http.get(f"/api/friends/{alice_id}")).json()["incoming"][0]["id"] == (
            made_id
        )
        # Only Bob answers it; Alice may only withdraw it.
        assert (await alice.http.post(f"/api/challenges/{made_id}/accept")).status_code == 404

        accepted = await bob.http.post(f"/api/challenges/{made_id}/accept")
        assert accepted.status_code == 200, accepted.text
        code = accepted.json()["room"]
        again = await bob.http.post(f"/api/challenges/{made_id}/accept")
        assert again.json() == {"room": code}
        room = await running.services.store.room(code)
        assert room is not None and (room.seat0_id, room.seat1_id) == (alice_id, bob_id)
        assert room.match_id is not None and room.days_per_move == 1
        assert room.rules["length"] == 3
        told = await notes(alice)
        assert [(n["kind"], n["room"]) for n in told] == [("accepted", code)]
        # Both find it in 'Your games'; the challenge is no longer open.
        for client in (alice, bob):
            games = (await client.http.get("/api/games")).json()["games"]
            assert [g["room"] for g in games] == [code]
            assert (await client.http.get("/api/challenges")).json()["incoming"] == []
        declined = await bob.http.post(f"/api/challenges/{made_id}/decline")
        assert declined.status_code == 409 and code_of(declined) == "answered"


async def test_two_accepts_at_once_make_one_room(site: tuple[Running, ManualClock]) -> None:
    running, _ = site
    async with Client(running) as alice, Client(running) as bob:
        made = (await challenge(alice, await me(bob), length=5, move_seconds=90)).json()["id"]
        answers = await asyncio.gather(
            *(bob.http.post(f"/api/challenges/{made}/accept") for _ in range(4))
        )
        assert [a.status_code for a in answers] == [200] * 4
        rooms = {a.json()["room"] for a in answers}
        assert len(rooms) == 1
        (code,) = rooms
        games = (await alice.http.get("/api/games")).json()["games"]
        assert [g["room"] for g in games] == [code]
        made_rooms = await running.services.store.rooms_of(await me(alice))
        assert [room.code for room, _ in made_rooms] == [code]
        assert len(await notes(alice)) == 1


async def test_a_declined_challenge_tells_the_challenger_and_a_late_one_expires(
    site: tuple[Running, ManualClock],
) -> None:
    running, clock = site
    async with Client(running) as alice, Client(running) as bob:
        bob_id = await me(bob)
        first = (await challenge(alice, bob_id)).json()["id"]
        assert (await bob.http.post(f"/api/challenges/{first}/decline")).json() == {
            "state": "declined"
        }
        assert (await bob.http.post(f"/api/challenges/{first}/decline")).json() == {
            "state": "declined"
        }
        assert [n["kind"] for n in await notes(alice)] == ["declined"]
        refused = await bob.http.post(f"/api/challenges/{first}/accept")
        assert refused.status_code == 409 and code_of(refused) == "answered"

        second = (await challenge(alice, bob_id)).json()["id"]
        await clock.advance(EXPIRES_AFTER - 1)
        assert [c["id"] for c in (await bob.http.get("/api/challenges")).json()["incoming"]] == [
            second
        ]
        await clock.advance(1)
        assert (await bob.http.get("/api/challenges")).json()["incoming"] == []
        late = await bob.http.post(f"/api/challenges/{second}/accept")
        assert late.status_code == 410 and code_of(late) == "expired"
        # Expired, it no longer counts: Alice may challenge Bob again, and withdraw it.
        third = (await challenge(alice, bob_id)).json()["id"]
        assert (await alice.http.delete(f"/api/challenges/{third}")).json() == {
            "state": "cancelled"
        }
        assert (await bob.http.get("/api/challenges")).json()["incoming"] == []


async def test_challenges_are_limited_per_hour_and_while_open(
    site: tuple[Running, ManualClock],
) -> None:
    running, clock = site
    clients = [Client(running) for _ in range(OPEN_MAX + 2)]
    try:
        alice, *others = [await c.__aenter__() for c in clients]
        ids = [await me(c) for c in others]
        for index, to in enumerate(ids[:OPEN_MAX]):
            if index and index % PER_HOUR == 0:
                refused = await challenge(alice, to)
                assert refused.status_code == 429 and refused.headers["Retry-After"]
                await clock.advance(HOUR)
            assert (await challenge(alice, to)).status_code == 201
        await clock.advance(HOUR)
        too_many = await challenge(alice, ids[OPEN_MAX])
        assert too_many.status_code == 409 and code_of(too_many) == "too_many_open"
        assert code_of(await challenge(alice, await me(alice))) == "self"
        assert (await challenge(alice, "nobody")).status_code == 404
    finally:
        for client in clients:
            await client.__aexit__(None, None, None)


async def test_a_block_stops_challenges_follows_and_removes_open_ones(
    site: tuple[Running, ManualClock],
) -> None:
    running, _ = site
    async with Client(running) as alice, Client(running) as bob:
        alice_id, bob_id = await me(alice), await me(bob)
        await alice.http.put(f"/api/friends/{bob_id}")
        pending = (await challenge(alice, bob_id)).json()["id"]
        blocked = await bob.http.put(f"/api/blocks/{alice_id}")
        assert blocked.json()["blocking"] is True
        assert (await bob.http.get("/api/challenges")).json()["incoming"] == []
        assert (await bob.http.post(f"/api/challenges/{pending}/accept")).status_code == 409
        assert (await alice.http.get("/api/friends")).json()["friends"] == []
        refused = await challenge(alice, bob_id)
        assert refused.status_code == 403 and code_of(refused) == "blocked"
        assert code_of(await alice.http.put(f"/api/friends/{bob_id}")) == "blocked"
        own = await challenge(bob, alice_id)  # the blocker is told to unblock first
        assert own.status_code == 403 and "unblock" in own.json()["detail"]["message"]
        listed = (await bob.http.get("/api/blocks")).json()["players"]
        assert [p["id"] for p in listed] == [alice_id]
        assert (await bob.http.delete(f"/api/blocks/{alice_id}")).json()["blocking"] is False
        assert (await challenge(alice, bob_id)).status_code == 201


async def test_a_banned_player_may_not_challenge(site: tuple[Running, ManualClock]) -> None:
    running, _ = site
    async with Client(running) as mod, Client(running) as alice, Client(running) as bob:
        await running.services.fairplay.set_moderator(await me(mod), True, "test")
        alice_id = await me(alice)
        banned = await mod.http.post(
            f"/api/mod/players/{alice_id}/actions", json={"kind": "ban_play", "note": "doors"}
        )
        assert banned.status_code == 200
        refused = await challenge(alice, await me(bob))
        assert refused.status_code == 403 and code_of(refused) == "banned"
