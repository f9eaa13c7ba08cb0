"""Tutor mode at a practice table: the table asks before sending a play; the server warns for a
play that gives up more than TUTOR_LOSS and not for the engine's best, and sends nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from bidak.server.analysis.schemas import TUTOR_LOSS
from bidak.training import cube_loss
from tests.server.harness import Client, friend_room, running_server, server_settings

pytestmark = pytest.mark.anyio


async def test_the_tutor_warns_for_a_blunder_and_not_for_the_best_play(tmp_path: Path) -> None:
    async with running_server(server_settings(tmp_path)) as running, Client(running) as guest:
        room = (
            await guest.http.post(
                "/api/rooms", json={"kind": "practice", "length": 1, "level": "beginner"}
            )
        ).json()
        await guest.join(room["code"])
        url = f"/api/rooms/{room['code']}/tutor"
        for _ in range(20):  # until a roll has a play that loses more than the threshold
            while guest.table is None or "play" not in guest.table["allowed"]:
                await guest.receive()
            hint = await guest.http.get(f"/api/rooms/{room['code']}/hint", params={"level": "1ply"})
            assert hint.status_code == 200, hint.text
            candidates = hint.json()["hint"]["candidates"]
            best, worst = candidates[0], candidates[-1]
            steps = lambda c: [s[:2] for s in c["steps"]]  # noqa: E731
            if worst["loss"] > TUTOR_LOSS:
                break
            await guest.act({"type": "play", "steps": steps(best)})
            guest.table = None  # wait for the next roll of ours
        else:
            pytest.fail("no roll with a blunder in 20 turns")
        version = guest.version

        warned = (await guest.http.post(url, json={"steps": steps(worst)})).json()
        assert warned["warn"] is True and warned["loss"] == pytest.approx(worst["loss"])
        assert warned["best"] == best["notation"] and warned["version"] == version
        fine = (await guest.http.post(url, json={"steps": list(reversed(steps(best)))})).json()
        assert fine["warn"] is False and fine["loss"] == 0
        # Asking sent nothing: the play is still to be made.
        state = await guest.http.get(f"/api/rooms/{room['code']}")
        assert state.status_code == 200 and guest.version == version
        illegal = await guest.http.post(url, json={"steps": [[24, 1]]})
        assert illegal.status_code == 422


async def test_the_tutor_is_for_your_own_practice_table(tmp_path: Path) -> None:
    async with (
        running_server(server_settings(tmp_path)) as running,
        Client(running) as alice,
        Client(running) as bob,
    ):
        room, _ = await friend_room(alice, bob, length=1)
        answer = await alice.http.post(f"/api/rooms/{room['code']}/tutor", json={"steps": []})
        assert answer.status_code == 403


async def test_the_tutor_warns_for_a_cube_blunder_and_not_for_the_right_action(
    tmp_path: Path,
) -> None:
    async with running_server(server_settings(tmp_path)) as running, Client(running) as guest:
        room = (
            await guest.http.post(
                "/api/rooms", json={"kind": "practice", "length": 7, "level": "beginner"}
            )
        ).json()
        code = room["code"]
        await guest.join(code)
        for _ in range(30):  # until a cube decision whose wrong answer is a blunder
            while guest.table is None or not {"play", "double"} & set(guest.table["allowed"]):
                await guest.receive()
            hint = await guest.http.get(f"/api/rooms/{code}/hint", params={"level": "1ply"})
            assert hint.status_code == 200, hint.text
            advice = hint.json()["hint"]
            if advice["kind"] == "cube":
                figures = (advice["no_double"], advice["double_take"], advice["double_pass"])
                losses = {c: cube_loss("doubler", c, *figures) for c in ("double", "no_double")}
                right = "double" if advice["should_double"] else "no_double"
                wrong = "no_double" if right == "double" else "double"
                if losses[wrong] > TUTOR_LOSS:
                    break
                await guest.act({"type": "roll"})
            else:
                await guest.act(
                    {"type": "play", "steps": [s[:2] for s in advice["candidates"][0]["steps"]]}
                )
            guest.table = None
        else:
            pytest.fail("no cube blunder to warn about in 30 turns")
        url = f"/api/rooms/{code}/tutor"
        warned = (await guest.http.post(url, json={"cube": wrong})).json()
        assert warned["warn"] is True and warned["best"] == right
        assert warned["loss"] == pytest.approx(losses[wrong], abs=1e-6)
        fine = (await guest.http.post(url, json={"cube": right})).json()
        assert fine["warn"] is False and fine["loss"] == pytest.approx(0, abs=1e-9)
        # a taker's answer is no question for the player on roll; nor is one of each
        assert (await guest.http.post(url, json={"cube": "take"})).status_code == 409
        both = await guest.http.post(url, json={"cube": right, "steps": []})
        assert both.status_code == 422
