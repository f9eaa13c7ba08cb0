"""The blunder bank and the daily drill (bidak.server.training), on SQLite and PostgreSQL.

A reviewed match banks each person's decisions that lost at least BANK_LOSS, once: a second
review adds none. The drill shows a card without its answer, grades an answer by the equity it
gave up, and FSRS brings a card answered well back later than one answered badly.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from bidak.server.shared.clocks import ManualClock
from bidak.server.training import bank_review
from bidak.server.training import queries as training_queries
from bidak.server.training.schedule import answered, new_schedule
from bidak.training import Grade, bankable
from tests.server.backends import database_url, postgres_url
from tests.server.harness import Client, friend_room, running_server, server_settings
from tests.server.scripted import Script, drive, play_all

__all__ = ["database_url", "postgres_url"]
pytestmark = pytest.mark.anyio


def test_a_card_answered_well_comes_back_later_than_one_answered_badly() -> None:
    now = 1_800_000_000.0
    state, due = new_schedule(now)
    assert due == now
    _, good = answered(state, Grade.GOOD, now)
    _, again = answered(state, Grade.AGAIN, now)
    assert now < again < good
    # and a card answered well twice waits days, not minutes
    after, first = answered(state, Grade.GOOD, now)
    _, second = answered(after, Grade.GOOD, first)
    assert second - first >= 86_400


async def test_a_reviewed_match_banks_its_mistakes_once_and_drills_them(
    database_url: str, tmp_path: Path
) -> None:
    clock = ManualClock()
    settings = server_settings(tmp_path, database_url=database_url)
    async with running_server(settings, clock) as running, Client(running) as alice:
        async with Client(running) as bob:
            room, _ = await friend_room(alice, bob, length=1)
            await alice.join(room["code"])
            await bob.join(room["code"])
            await play_all(drive(alice, Script(7), 0), drive(bob, Script(8), 1))
        match_id = (await alice.http.get(f"/api/rooms/{room['code']}")).json()["match_id"]
        assert (await alice.http.get("/api/training")).json()["cards"] == 0

        found = await alice.http.get(
            f"/api/matches/{match_id}/review", params={"level": "1ply"}, timeout=120
        )
        review = found.json()
        await running.services.training.settle()  # the cards are banked after the answer
        decisions = [d for game in review["games"] for d in game["decisions"]]
        expected = bankable(decisions, [0])
        assert expected, "random plays lose equity: the test needs at least one card"
        summary = (await alice.http.get("/api/training")).json()
        assert summary == {"due": len(expected), "cards": len(expected), "streak": 0}

        # A second review of the same match adds no card.
        services = running.services
        me = (await alice.http.get("/api/me")).json()["id"]
        added = await bank_review(
            services.db, services.reviews.run, clock.now(), match_id, review, {0: me}, "1ply"
        )
        assert added == 0
        assert (await alice.http.get("/api/training")).json()["cards"] == len(expected)

        # The drill: a card without its answer; answers graded by the equity they give up.
        drill = (await alice.http.get("/api/training/drill")).json()
        card = drill["card"]
        assert card is not None and "best" not in card and "played" not in card
        row = await services.db.read(
            partial(training_queries.card, player_id=me, card_id=card["id"])
        )
        assert row is not None
        if card["kind"] == "checker":
            ranking = row.analysis["ranking"]
            results = {play["result"] for play in card["legal_plays"]}
            assert results == {r["result"] for r in ranking}
            best = {"type": "play", "result": ranking[0]["result"]}
            worst = {"type": "play", "result": ranking[-1]["result"]}
            worst_loss = ranking[-1]["loss"]
        else:
            choices = {"doubler": ("double", "no_double"), "taker": ("take", "drop")}
            wrong = next(c for c in choices[card["decider"]] if c != row.best)
            best = {"type": "cube", "choice": row.best}
            worst = {"type": "cube", "choice": wrong}
            worst_loss = row.loss
        url = f"/api/training/cards/{card['id']}/answer"
        asked = clock.now()
        bad = (await alice.http.post(url, json=worst)).json()
        assert bad["grade"] == "again" and bad["loss"] == pytest.approx(worst_loss, abs=1e-9)
        assert bad["summary"]["streak"] == 1
        await clock.advance(bad["due"] - clock.now())
        good = (await alice.http.post(url, json=best)).json()
        assert good["grade"] == "good" and good["loss"] == 0.0
        assert good["due"] - clock.now() > bad["due"] - asked  # back later than after "again"

        # Someone else's card is no card at all; a play that is not legal is refused.
        async with Client(running) as carol:
            assert (await carol.http.post(url, json=best)).status_code == 404
        nonsense = {"type": "play", "result": "nothing"}
        assert (await alice.http.post(url, json=nonsense)).status_code == 422


def test_a_race_card_of_a_2ply_review_keeps_the_3ply_ranking_and_says_so() -> None:
    """The money duel's 4-3 where bgsage's 2ply ranks first a play that leaves three checkers to
    be backgammoned: the drill's card of a ``2ply`` review grades by the ``3ply`` ranking (the
    saving play first) and records depth 3, so that a card banked by a review that still ranked
    races at 2ply (depth 2) takes these figures when its match is reviewed again."""
    from bidak.engine.review_walk import state_ids
    from bidak.server.training.service import card_of
    from tests.engine.test_expert_misses import RACE_MISSES, state_of

    record = RACE_MISSES[0]
    state = state_of(record)
    assert state.dice is not None and state.turn is not None
    decision = {
        "kind": "checker",
        "xgid": state_ids(state)[1],
        "dice": list(state.dice),
        "game": 1,
        "turn": 30,
        "player": int(state.turn),
        "played": "10/7 5/1",
        "best": "21/17 20/17",
        "loss": 0.6,
    }
    card = card_of(decision, "2ply")
    assert card["depth"] == 3
    assert card["analysis"]["ranking"][0]["result"] == record["gnubg"]
    thrown = next(r for r in card["analysis"]["ranking"] if r["result"] == record["expert"])
    assert thrown["loss"] > 0.4
