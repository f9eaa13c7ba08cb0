"""A guest plays a whole practice match against a bot; reconnects keep the table exact."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.server.harness import Client, friend_room, running_server, server_settings
from tests.server.scripted import Script, drive

pytestmark = pytest.mark.anyio


async def test_a_full_practice_match_against_a_bot(tmp_path: Path) -> None:
    async with running_server(server_settings(tmp_path)) as running, Client(running) as guest:
        me = (await guest.http.get("/api/me")).json()
        room = (
            await guest.http.post(
                "/api/rooms",
                json={"kind": "practice", "length": 3, "cube": True, "level": "beginner"},
            )
        ).json()
        assert room["seats"][1]["bot"] == "beginner" and room["seat"] == 0
        snapshot = await guest.join(room["code"])
        assert snapshot["seed_hash"] and snapshot["seed"] is None
        final = await drive(guest, Script(4, double=0.2), 0)
        assert max(final["score"]) >= 3 and final["winner"] in (0, 1)

        history = (await guest.http.get("/api/me/matches")).json()
        assert history[0]["match_id"] == room["match_id"] and history[0]["finished"]
        assert history[0]["opponent"] == "Bot (beginner)"
        # The same browser is the same guest.
        assert (await guest.http.get("/api/me")).json()["id"] == me["id"]
        # A finished match leaves nothing behind in the process that served it (a server
        # runs for months): no lock, no live state, no bot.
        rooms = running.services.rooms
        assert room["match_id"] not in rooms.actor._locks
        assert room["match_id"] not in rooms.actor._live
        assert not any(key.startswith(room["match_id"]) for key in rooms.bots._bots)


async def test_a_reconnect_in_the_middle_of_a_turn_gets_exactly_what_was_missed(
    tmp_path: Path,
) -> None:
    async with running_server(server_settings(tmp_path)) as running:
        async with Client(running) as alice, Client(running) as bob:
            room, _ = await friend_room(alice, bob)
            await alice.join(room["code"])
            await bob.join(room["code"])
            # Bob drops his connection while it is his turn or Alice's; Alice keeps playing.
            seen = bob.version
            await bob.ws.close()
            bob.ws = None
            script = Script(3)
            for _ in range(6):
                table = alice.table
                assert table is not None
                if table["turn"] == 0 and table["allowed"]:
                    action = script.choose(table)
                    assert action is not None
                    await alice.act(action)
                    await alice.until(lambda m: m["type"] == "events")
                else:
                    break
            snapshot = await bob.join(room["code"], since=seen)
            assert snapshot["version"] == alice.version
            missed = [item["version"] for item in snapshot.get("missed", [])]
            assert missed == list(range(seen + 1, alice.version + 1))
            # The table Bob gets back is the one Alice sees, from his side.
            assert bob.table is not None and alice.table is not None
            assert bob.table["points"] == [-n for n in reversed(alice.table["points"])]
            assert bob.table["dice"] == alice.table["dice"]
            assert bob.table["score"] == alice.table["score"]


async def test_bad_intents_get_an_error_and_change_nothing(tmp_path: Path) -> None:
    async with running_server(server_settings(tmp_path)) as running:
        async with Client(running) as alice, Client(running) as bob, Client(running) as eve:
            _, room = await friend_room(alice, bob)
            await alice.join(room["code"])
            await eve.join(room["code"])
            before = alice.version
            await eve.act({"type": "roll"})
            refused = await eve.until(lambda m: m["type"] == "error")
            assert refused["code"] == "not_seated"
            await alice.act({"type": "play", "steps": [[24, 1]]})
            refused = await alice.until(lambda m: m["type"] == "error")
            assert refused["code"] in ("illegal", "stale")
            await alice.send({"type": "dance"})
            refused = await alice.until(lambda m: m["type"] == "error")
            assert refused["code"] == "bad_message"
            stored = (await alice.http.get(f"/api/matches/{room['match_id']}/events")).json()
            assert len(stored["events"]) == before
