"""Hints at a practice table and the review of a finished match, over HTTP."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.server.harness import Client, running_server, server_settings
from tests.server.scripted import Script, drive

pytestmark = pytest.mark.anyio


async def test_hint_then_review(tmp_path: Path) -> None:
    async with running_server(server_settings(tmp_path)) as running, Client(running) as guest:
        room = (
            await guest.http.post(
                "/api/rooms", json={"kind": "practice", "length": 1, "level": "beginner"}
            )
        ).json()
        await guest.join(room["code"])
        while guest.table is None or "play" not in guest.table["allowed"]:
            await guest.receive()
        answer = await guest.http.get(f"/api/rooms/{room['code']}/hint", params={"level": "1ply"})
        assert answer.status_code == 200, answer.text
        hint = answer.json()
        assert hint["kind"] == "PlayHint"
        candidates = hint["hint"]["candidates"]
        legal = {p["notation"] for p in guest.table["legal_plays"]}
        assert candidates and {c["notation"] for c in candidates} <= legal
        assert candidates[0]["loss"] == 0

        await drive(guest, Script(2), 0)
        review = await guest.http.get(
            f"/api/matches/{room['match_id']}/review", params={"level": "1ply"}
        )
        assert review.status_code == 200, review.text
        body = review.json()
        assert body["games"] and len(body["totals"]) == 2


async def test_hints_are_only_for_your_own_practice_table(tmp_path: Path) -> None:
    async with running_server(server_settings(tmp_path)) as running:
        async with Client(running) as alice, Client(running) as bob:
            room = (await alice.http.post("/api/rooms", json={"kind": "friend"})).json()
            await bob.http.post(f"/api/rooms/{room['code']}/join")
            answer = await alice.http.get(f"/api/rooms/{room['code']}/hint")
            assert answer.status_code == 403
            missing = await alice.http.get("/api/rooms/nope/hint")
            assert missing.status_code == 404
