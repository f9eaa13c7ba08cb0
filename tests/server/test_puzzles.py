"""Puzzles (bidak.server.training, migration 0011), on SQLite and PostgreSQL: a banked card with
one clear answer becomes a puzzle for everybody but its player, served near the solver's rating
in the theme asked for and never twice; an answer moves both Glicko-2 ratings once, however often
it is sent (one after another or at once); a player who opts out takes their puzzles out of the
pool, and their cards banked from then on are not offered."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from bidak.formats.ids import read_any_id
from bidak.server.shared.store.db import Database
from bidak.server.training import queries
from bidak.server.training.service import plays_of
from bidak.training.puzzles import PUZZLE_GAP
from tests.server.backends import database_url, postgres_url
from tests.server.harness import Client, running_server, server_settings

__all__ = ["database_url", "postgres_url"]
pytestmark = pytest.mark.anyio
START_31 = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:3:10"
NOW = datetime(2026, 12, 3, tzinfo=UTC)
PLAYS = plays_of(read_any_id(START_31).position, (3, 1))
BEST = next(p for p in PLAYS if p["notation"] == "8/5 6/5")


def ranking(second: float) -> list[dict[str, Any]]:
    """The best play 8/5 6/5, every other play at least ``second`` worse."""
    others = [p for p in PLAYS if p is not BEST]
    return [{"result": BEST["result"], "notation": BEST["notation"], "loss": 0.0}] + [
        {"result": p["result"], "notation": p["notation"], "loss": second + i / 100}
        for i, p in enumerate(others)
    ]


def card(player_id: str, turn: int, **fields: Any) -> dict[str, Any]:
    return {
        "player_id": player_id,
        "match_id": "m1",
        "game": 1,
        "turn": turn,
        "kind": "checker",
        "seat": 0,
        "xgid": START_31,
        "played": "24/21 24/23",
        "best": "8/5 6/5",
        "loss": 0.12,
        "depth": 1,
        "phase": "opening",
        "theme": "opening",
        "analysis": {"dice": [3, 1], "ranking": ranking(PUZZLE_GAP)},
        "schedule": {"state": 1},
        "due": 100.0,
        "created_at": 100.0,
        **fields,
    }


def pass_card(player_id: str, turn: int, **fields: Any) -> dict[str, Any]:
    """A taker's clear pass: taking gives up 0.5."""
    analysis = {"decider": "taker", "no_double": 0.5, "double_take": 1.5, "double_pass": 1.0}
    return card(
        player_id,
        turn,
        kind="cube",
        played="take",
        best="drop",
        theme="pass",
        analysis=analysis,
        **fields,
    )


async def _match(db: Database, player_id: str) -> None:
    async with db.engine.begin() as connection:
        await connection.execute(
            text(
                "INSERT INTO rooms (code, kind, created_at, creator_id, rules)"
                " VALUES ('r1', 'practice', :t, :p, '{}')"
            ),
            {"t": NOW, "p": player_id},
        )
        await connection.execute(
            text(
                "INSERT INTO matches (id, room_code, rules, state, version, seed, seed_hash,"
                " dice_drawn, finished, created_at, updated_at)"
                " VALUES ('m1', 'r1', '{}', '{}', 0, 's', 'h', 0, true, :t, :t)"
            ),
            {"t": NOW},
        )


async def test_puzzles_are_served_answered_once_and_rated(
    database_url: str, tmp_path: Path
) -> None:
    settings = server_settings(tmp_path, database_url=database_url)
    async with (
        running_server(settings) as running,
        Client(running) as alice,
        Client(running) as bob,
        Client(running) as carol,
    ):
        ana = (await alice.http.get("/api/me")).json()["id"]
        await bob.http.get("/api/me")
        await carol.http.get("/api/me")
        db = running.services.training.db
        await _match(db, ana)
        unclear = card(ana, 7, analysis={"dice": [3, 1], "ranking": ranking(0.03)})
        banked = [card(ana, 3), unclear, pass_card(ana, 5)]
        assert await db.write(partial(queries.bank, cards=banked)) == 3

        figures = (await bob.http.get("/api/puzzles")).json()
        assert figures["themes"] == {"opening": 1, "pass": 1}, "the unclear card is no puzzle"
        assert (figures["rating"], figures["answered"], figures["shared"]) == (1500, 0, True)
        own = (await alice.http.get("/api/puzzles/next")).json()
        assert own["puzzle"] is None, "nobody is given their own positions"

        shown = (await bob.http.get("/api/puzzles/next", params={"theme": "pass"})).json()
        puzzle = shown["puzzle"]
        assert puzzle["kind"] == "cube" and puzzle["decider"] == "taker"
        assert "match_id" not in puzzle and ana not in str(shown), "anonymous"
        url = f"/api/puzzles/{puzzle['id']}/answer"
        wrong = (await bob.http.post(url, json={"type": "cube", "choice": "take"})).json()
        assert wrong["right"] is False and wrong["loss"] == pytest.approx(0.5)
        assert wrong["rating"] < 1500 < wrong["puzzle_rating"] and not wrong["repeated"]
        again = (await bob.http.post(url, json={"type": "cube", "choice": "drop"})).json()
        assert again == {**wrong, "repeated": True}, "a retry changes nothing"
        figures = (await bob.http.get("/api/puzzles")).json()
        assert figures["answered"] == 1 and figures["rating"] == pytest.approx(wrong["rating"])
        empty = (await bob.http.get("/api/puzzles/next", params={"theme": "pass"})).json()
        assert empty["puzzle"] is None, "a puzzle answered is not served again"

        shown = (await bob.http.get("/api/puzzles/next")).json()["puzzle"]
        assert shown["theme"] == "opening" and len(shown["legal_plays"]) == len(PLAYS)
        url = f"/api/puzzles/{shown['id']}/answer"
        bad = await bob.http.post(url, json={"type": "play", "result": "nonsense"})
        assert bad.status_code == 422
        right = (await bob.http.post(url, json={"type": "play", "result": BEST["result"]})).json()
        assert right["right"] is True and right["loss"] == 0
        assert right["rating_before"] == pytest.approx(wrong["rating"])
        assert right["rating"] > right["rating_before"] and right["best"] == "8/5 6/5"
        missing = await bob.http.post("/api/puzzles/9999/answer", json={"type": "play"})
        assert missing.status_code == 404

        # Twin answers at once: one moves the ratings, the other reports the first.
        twins = await asyncio.gather(
            *(carol.http.post(url, json={"type": "play", "result": BEST["result"]}) for _ in "ab")
        )
        verdicts = [t.json() for t in twins]
        assert sorted(v["repeated"] for v in verdicts) == [False, True]
        assert verdicts[0]["rating"] == verdicts[1]["rating"]
        mine = (await carol.http.get("/api/puzzles")).json()
        assert mine["answered"] == 1 and mine["rating"] == pytest.approx(verdicts[0]["rating"])
        assert verdicts[0]["puzzle_rating_before"] == pytest.approx(right["puzzle_rating"])


async def test_opting_out_takes_ones_positions_out_of_the_pool(
    database_url: str, tmp_path: Path
) -> None:
    settings = server_settings(tmp_path, database_url=database_url)
    async with (
        running_server(settings) as running,
        Client(running) as alice,
        Client(running) as bob,
    ):
        ana = (await alice.http.get("/api/me")).json()["id"]
        await bob.http.get("/api/me")
        db = running.services.training.db
        await _match(db, ana)
        await db.write(partial(queries.bank, cards=[card(ana, 3), pass_card(ana, 5)]))
        shown = (await bob.http.get("/api/puzzles/next", params={"theme": "pass"})).json()
        shown = shown["puzzle"]
        answered = await bob.http.post(
            f"/api/puzzles/{shown['id']}/answer", json={"type": "cube", "choice": "drop"}
        )
        assert answered.status_code == 200 and answered.json()["right"] is True

        off = await alice.http.put("/api/puzzles/sharing", json={"shared": False})
        assert off.status_code == 200 and off.json()["shared"] is False
        figures = (await bob.http.get("/api/puzzles")).json()
        assert figures["themes"] == {} and figures["answered"] == 1, "bob's history stays"
        assert (await bob.http.get("/api/puzzles/next")).json()["puzzle"] is None
        gone = await bob.http.post(
            f"/api/puzzles/{shown['id']}/answer", json={"type": "cube", "choice": "drop"}
        )
        assert gone.status_code == 404
        # banked while opted out: no puzzle; the drill keeps every card
        await db.write(partial(queries.bank, cards=[card(ana, 9)]))
        assert (await bob.http.get("/api/puzzles")).json()["themes"] == {}
        assert (await alice.http.get("/api/training")).json()["cards"] == 3

        on = await alice.http.put("/api/puzzles/sharing", json={"shared": True})
        assert on.json()["shared"] is True
        assert (await bob.http.get("/api/puzzles")).json()["themes"] == {}, "nothing comes back"
        await db.write(partial(queries.bank, cards=[card(ana, 11)]))
        assert (await bob.http.get("/api/puzzles")).json()["themes"] == {"opening": 1}
        odd = await alice.http.put("/api/puzzles/sharing", json={"shared": "x", "more": 1})
        assert odd.status_code == 422
