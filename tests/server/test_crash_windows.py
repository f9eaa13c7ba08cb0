"""The two moments where a kill falls between two commits of one request, made exactly.

A random SIGKILL (``test_crash.py``) hits these windows only now and then, so each test here
plays up to the request, stops the server, rolls the database back to the state the kill
would leave (with the stored format only: SQL on the tables and ``replay``), starts a server
again on the same file and checks the match still gets played.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from bidak.match import event_from_json, replay, state_to_json
from bidak.server.shared.settings import Settings
from tests.server.harness import Client, running_server, server_settings
from tests.server.scripted import Script, drive

pytestmark = pytest.mark.anyio


def _database(settings: Settings) -> Path:
    return Path(settings.database_url.removeprefix("sqlite:///"))


async def _client_of(running: object, cookie: str) -> Client:
    """The same browser on a restarted server: its session cookie is in the database."""
    client = Client(running)  # type: ignore[arg-type]
    client.http.cookies.set("bidak_session", cookie)
    return await client.__aenter__()


async def test_a_kill_between_a_new_match_and_its_opening_roll(tmp_path: Path) -> None:
    """``_start_match`` stores the match, then throws the opening roll in a second commit."""
    settings = server_settings(tmp_path)
    async with running_server(settings) as running, Client(running) as guest:
        options = {"kind": "practice", "length": 1, "level": "beginner"}
        room = (await guest.http.post("/api/rooms", json=options)).json()
        cookie = guest.http.cookies["bidak_session"]

    with sqlite3.connect(_database(settings)) as db:
        first = [
            json.loads(payload)
            for (payload,) in db.execute(
                "SELECT payload FROM events WHERE match_id = ? AND version <= 2 ORDER BY version",
                (room["match_id"],),
            )
        ]
        assert [event["type"] for event in first] == ["match_started", "game_started"]
        state = replay(event_from_json(event) for event in first)
        db.execute("DELETE FROM events WHERE match_id = ? AND version > 2", (room["match_id"],))
        db.execute(
            "UPDATE matches SET state = ?, version = 2, dice_drawn = 0, deadline = NULL,"
            " deadline_version = NULL WHERE id = ?",
            (json.dumps(state_to_json(state)), room["match_id"]),
        )

    async with running_server(settings) as running:
        guest = await _client_of(running, cookie)
        try:
            snapshot = await guest.join(room["code"], since=0)
            assert [item["version"] for item in snapshot["missed"]][:2] == [1, 2]
            final = await drive(guest, Script(7), 0)
            assert final["phase"] == "match_over"
        finally:
            await guest.__aexit__(None, None, None)


async def test_a_kill_between_taking_the_seat_and_starting_the_match(tmp_path: Path) -> None:
    """``RoomService.join`` takes the seat in one commit and stores the match in another."""
    settings = server_settings(tmp_path)
    async with running_server(settings) as running:
        async with Client(running) as host, Client(running) as guest:
            room = (await host.http.post("/api/rooms", json={"kind": "friend"})).json()
            match_id = (await guest.http.post(f"/api/rooms/{room['code']}/join")).json()["match_id"]
            cookie = guest.http.cookies["bidak_session"]

    with sqlite3.connect(_database(settings)) as db:
        db.execute("DELETE FROM events WHERE match_id = ?", (match_id,))
        db.execute("DELETE FROM matches WHERE id = ?", (match_id,))
        db.execute("UPDATE rooms SET match_id = NULL WHERE code = ?", (room["code"],))

    async with running_server(settings) as running:
        guest = await _client_of(running, cookie)
        try:
            # The guest's browser never had an answer, so it asks to join again.
            again = (await guest.http.post(f"/api/rooms/{room['code']}/join")).json()
            assert again["seat"] == 1
            assert again["match_id"] is not None, "the room is full but its match never starts"
        finally:
            await guest.__aexit__(None, None, None)
