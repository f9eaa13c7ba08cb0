"""Rematch: an offer after the match, accepted within a minute, starts one new match for the
same two players with the same options; late, early or third-party asks are refused."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bidak.server.play.rematch import OFFER_SECONDS
from bidak.server.shared.clocks import ManualClock
from tests.server.harness import Client, friend_room, running_server, server_settings
from tests.server.scripted import Script, drive, play_all

pytestmark = pytest.mark.anyio


def origin(client: Client) -> dict[str, str]:
    return {"Origin": client.running.base}


async def finished_room(alice: Client, bob: Client, **options: Any) -> dict[str, Any]:
    room, _ = await friend_room(alice, bob, length=1, **options)
    await alice.join(room["code"])
    await bob.join(room["code"])
    await play_all(drive(alice, Script(7), 0), drive(bob, Script(8), 1))
    return room


async def ask(client: Client, code: str) -> Any:
    return await client.http.post(f"/api/rooms/{code}/rematch", headers=origin(client))


async def test_an_accepted_offer_starts_one_rematch_with_seats_swapped(tmp_path: Path) -> None:
    clock = ManualClock()
    async with (
        running_server(server_settings(tmp_path), clock) as running,
        Client(running) as alice,
        Client(running) as bob,
        Client(running) as carol,
    ):
        room = await finished_room(alice, bob, rated=True, move_seconds=30)
        assert (await ask(carol, room["code"])).status_code == 409
        offered = (await ask(alice, room["code"])).json()
        assert offered["state"] == "offered" and offered["by"] == 0
        assert offered["until"] == pytest.approx(clock.now() + OFFER_SECONDS)
        assert (await ask(alice, room["code"])).json()["state"] == "offered"  # asked again
        await clock.advance(OFFER_SECONDS - 1)
        accepts = await asyncio.gather(ask(bob, room["code"]), ask(bob, room["code"]))
        rooms = {a.json()["room"] for a in accepts}
        assert len(rooms) == 1 and {a.json()["state"] for a in accepts} == {"accepted"}
        (code,) = rooms
        again = (await ask(alice, room["code"])).json()
        assert again == {"state": "accepted", "by": None, "until": None, "room": code}
        twin = (await alice.http.get(f"/api/rooms/{code}")).json()
        first = (await alice.http.get(f"/api/rooms/{room['code']}")).json()
        assert twin["match_id"] and twin["match_id"] != first["match_id"]
        assert twin["seat"] == 1  # Alice sat in seat 0 before: the seats are swapped
        assert twin["rules"] == first["rules"] and twin["move_seconds"] == 30
        stored = await running.services.store.room(code)
        assert stored is not None and stored.rated


async def test_an_offer_runs_out_after_a_minute(tmp_path: Path) -> None:
    clock = ManualClock()
    async with (
        running_server(server_settings(tmp_path), clock) as running,
        Client(running) as alice,
        Client(running) as bob,
    ):
        room = await finished_room(alice, bob)
        await ask(alice, room["code"])
        await clock.advance(OFFER_SECONDS + 1)
        late = (await ask(bob, room["code"])).json()
        # Too late to accept Alice's: Bob's press is a new offer of his own.
        assert late["state"] == "offered" and late["by"] == 1


async def test_no_rematch_before_the_end(tmp_path: Path) -> None:
    async with (
        running_server(server_settings(tmp_path)) as running,
        Client(running) as alice,
        Client(running) as bob,
    ):
        room, _ = await friend_room(alice, bob)
        answer = await ask(alice, room["code"])
        assert answer.status_code == 409 and "over" in answer.json()["detail"]
