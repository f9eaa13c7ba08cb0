"""Two friends play a whole match over real WebSockets; a spectator watches."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.server.harness import Client, running_server, server_settings
from tests.server.scripted import Script, drive, play_all

pytestmark = pytest.mark.anyio


def _kinds(messages: list[dict[str, Any]]) -> list[str]:
    return [
        item["event"]["type"]
        for message in messages
        if message["type"] == "events"
        for item in message["events"]
    ]


async def test_a_three_point_match_between_friends_with_the_cube(tmp_path: Path) -> None:
    async with running_server(server_settings(tmp_path)) as running:
        async with Client(running) as alice, Client(running) as bob, Client(running) as carol:
            created = await alice.http.post(
                "/api/rooms", json={"kind": "friend", "length": 3, "move_seconds": 90}
            )
            assert created.status_code == 201, created.text
            room = created.json()
            assert room["invite_url"].endswith(room["code"]) and room["match_id"] is None
            joined = (await bob.http.post(f"/api/rooms/{room['code']}/join")).json()
            assert joined["seat"] == 1 and joined["match_id"]
            watching = (await carol.http.post(f"/api/rooms/{room['code']}/join")).json()
            assert watching["seat"] is None

            await alice.join(room["code"])
            await bob.join(room["code"])
            await carol.join(room["code"], since=0)
            finals = await play_all(
                drive(alice, Script(1, double=0.3, drop=0.3), 0),
                drive(bob, Script(2, double=0.3, drop=0.3), 1),
                drive(carol, None, None),
            )
            assert finals[0]["score"] == finals[1]["score"] == finals[2]["score"]
            assert max(finals[0]["score"]) >= 3

            kinds = _kinds(alice.messages)
            assert {"doubled", "taken", "dropped", "match_won"} <= set(kinds)
            redoubles = [
                item["event"]
                for message in alice.messages
                if message["type"] == "events"
                for item in message["events"]
                if item["event"]["type"] == "doubled" and item["event"]["value"] >= 4
            ]
            assert redoubles, "somebody redoubled"
            # The spectator saw every event, in order, exactly once.
            stored = (await carol.http.get(f"/api/matches/{joined['match_id']}/events")).json()
            shown = [
                item
                for message in carol.messages
                for item in message.get("missed", []) + message.get("events", [])
            ]
            assert [i["version"] for i in shown] == [e["version"] for e in stored["events"]]
            assert [i["event"] for i in shown] == [e["event"] for e in stored["events"]]
