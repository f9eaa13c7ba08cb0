"""Hints at a practice table and the review of a finished match, over HTTP."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from tests.server.harness import Client, friend_room, running_server, server_settings
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
            room, _ = await friend_room(alice, bob)
            answer = await alice.http.get(f"/api/rooms/{room['code']}/hint")
            assert answer.status_code == 403
            missing = await alice.http.get("/api/rooms/nope/hint")
            assert missing.status_code == 404


async def test_a_match_between_players_is_reviewed_only_once_it_is_over(tmp_path: Path) -> None:
    async with running_server(server_settings(tmp_path)) as running:
        async with Client(running) as alice, Client(running) as bob, Client(running) as other:
            room, joined = await friend_room(alice, bob, length=1)
            match = joined["match_id"]
            await alice.join(room["code"])
            for client in (alice, bob, other):
                answer = await client.http.get(f"/api/matches/{match}/review")
                assert answer.status_code == 409, answer.text
                assert "opens when it ends" in answer.json()["detail"]

            await alice.act({"type": "forfeit"})
            await alice.until(lambda m: (m.get("table") or {}).get("phase") == "match_over")
            for client in (alice, bob, other):
                answer = await client.http.get(f"/api/matches/{match}/review")
                assert answer.status_code == 200, answer.text
                assert len(answer.json()["totals"]) == 2


async def test_a_busy_review_pool_answers_503_at_once_and_hints_still_work(tmp_path: Path) -> None:
    settings = server_settings(tmp_path, review_workers=1, analysis_waiting=0)
    async with running_server(settings) as running, Client(running) as guest:
        room = (
            await guest.http.post(
                "/api/rooms", json={"kind": "practice", "length": 1, "level": "beginner"}
            )
        ).json()
        await guest.join(room["code"])
        release = threading.Event()
        # Someone else's long review holds the only review thread.
        elsewhere = asyncio.ensure_future(running.services.reviews.run(release.wait))
        await asyncio.sleep(0)
        try:
            answer = await guest.http.get(f"/api/matches/{room['match_id']}/review")
            assert answer.status_code == 503, answer.text
            assert answer.headers["retry-after"] == "5"
            assert "try again" in answer.json()["detail"]
            # Hints have threads of their own, and the table still answers.
            while guest.table is None or "play" not in guest.table["allowed"]:
                await guest.receive()
            hint = await guest.http.get(f"/api/rooms/{room['code']}/hint", params={"level": "1ply"})
            assert hint.status_code == 200, hint.text
        finally:
            release.set()
            await elsewhere
        answer = await guest.http.get(f"/api/matches/{room['match_id']}/review")
        assert answer.status_code == 200, answer.text
