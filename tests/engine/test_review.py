"""Reviewing matches: a planted blunder is found, the engine's own play scores PR 0 (1-ply)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bidak.engine.context import context_for
from bidak.engine.hints import shared_evaluator
from bidak.engine.review import (
    CLOSE_CUBE,
    CheckerDecision,
    CubeChoice,
    CubeDecision,
    MatchReview,
    Verdict,
    review_mat,
    review_match,
)
from bidak.engine.sage import EngineError, Evaluator
from bidak.formats import read_mat
from bidak.formats.match_mat import mat_to_match
from bidak.match import (
    Action,
    Double,
    Drop,
    Event,
    GameStarted,
    MatchState,
    Move,
    OpeningRoll,
    Phase,
    Played,
    Player,
    Roll,
    RuleSet,
    ScriptedDice,
    SeededDice,
    Take,
    apply,
    apply_event,
    can_double,
    current_plays,
    decider,
    start_match,
)
from bidak.rules import Play, Position

DATA = Path(__file__).parent / "data"
BLUNDER = (DATA / "blunder.mat").read_text()


@pytest.fixture(scope="module")
def one_ply() -> Evaluator:
    return shared_evaluator("1ply")


def engine_match(length: int, seed: str, evaluator: Evaluator) -> list[Event]:
    """A match in which every decision is ``evaluator``'s first choice."""
    dice = SeededDice(seed)
    state, events = start_match(RuleSet(length=length))
    log = list(events)
    while state.phase is not Phase.MATCH_OVER:
        player = decider(state)
        action: Action
        if player is None:
            action = OpeningRoll(Player.ZERO)
        elif state.phase is Phase.ROLL:
            verdict = evaluator.cube(state.position, context_for(state, player))
            doubles = can_double(state, player) and verdict.should_double
            action = Double(player) if doubles else Roll(player)
        elif state.phase is Phase.DOUBLED:
            assert state.turn is not None
            verdict = evaluator.cube(state.position, context_for(state, state.turn))
            action = Take(player) if verdict.should_take else Drop(player)
        else:
            assert state.dice is not None
            best = evaluator.rank(state.position, state.dice, context_for(state, player))[0]
            play = next(p for p in current_plays(state) if p.result == best.result)
            action = Move.of(player, play)
        state, more = apply(state, action, dice)
        log.extend(more)
    return log


@pytest.fixture(scope="module")
def blunder_review(one_ply: Evaluator) -> MatchReview:
    return review_mat(BLUNDER, "1ply")


@pytest.fixture(scope="module")
def engine_log(one_ply: Evaluator) -> list[Event]:
    return engine_match(5, "review-1", one_ply)


@pytest.fixture(scope="module")
def engine_review(engine_log: list[Event]) -> MatchReview:
    return review_match(engine_log, "1ply")


def test_the_planted_blunder_is_flagged(blunder_review: MatchReview, one_ply: Evaluator) -> None:
    flagged = [d for d in blunder_review.decisions if d.verdict is not Verdict.OK]
    assert len(flagged) == 1
    blunder = flagged[0]
    assert isinstance(blunder, CheckerDecision)
    assert blunder.where.player is Player.ZERO and blunder.where.game == 1
    assert blunder.dice == (5, 3)
    assert blunder.played == "13/10 6/1*" and blunder.best == "8/3 6/3"
    assert blunder.verdict is Verdict.BLUNDER and blunder.counted
    # The engine itself, asked directly: the play loses more than 0.1.
    _, events = mat_to_match(read_mat(BLUNDER))
    before = next(
        e for e in events if isinstance(e, Played) and e.player is Player.ZERO and e.dice == (5, 3)
    )
    assert before.notation == "13/10 6/1*"
    position = _position_before(events, before)
    played = Play.parse("13/10 6/1*", position, (5, 3))
    ranked = one_ply.rank(position, (5, 3))
    assert next(r.loss for r in ranked if r.result == played.result) > 0.1
    assert blunder.loss > 0.1


def test_the_good_plays_are_not_flagged(blunder_review: MatchReview) -> None:
    alice, bob = blunder_review.totals
    assert (alice.name, bob.name) == ("Alice", "Bob")
    assert (alice.blunders, alice.errors, alice.doubtful) == (1, 0, 0)
    assert (bob.blunders, bob.errors, bob.doubtful) == (0, 0, 0)
    assert bob.pr == 0.0 and bob.decisions > 20
    blunder = next(d for d in blunder_review.decisions if d.verdict is Verdict.BLUNDER)
    assert alice.pr == pytest.approx(500 * blunder.loss / alice.decisions)


def test_engine_play_reviews_with_a_pr_near_zero(engine_review: MatchReview) -> None:
    for totals in engine_review.totals:
        assert totals.pr < 1.0
        assert totals.blunders == totals.errors == 0
        assert totals.decisions > 20
    cube = [d for d in engine_review.decisions if isinstance(d, CubeDecision)]
    assert {d.choice for d in cube} >= {CubeChoice.DOUBLE, CubeChoice.NO_DOUBLE}


def test_every_roll_is_listed_and_forced_plays_do_not_count(
    engine_log: list[Event], engine_review: MatchReview
) -> None:
    rolls = [e for e in engine_log if isinstance(e, Played)]
    checker = [d for d in engine_review.decisions if isinstance(d, CheckerDecision)]
    assert [(d.where.player, d.dice) for d in checker] == [(e.player, e.dice) for e in rolls]
    forced = [d for d in checker if d.forced]
    assert forced and not any(d.counted for d in forced)
    assert all(d.played == d.best and d.loss == 0.0 for d in forced)
    openings = [d for d in checker if d.opening]
    games = [e for e in engine_log if isinstance(e, GameStarted)]
    assert len(openings) == len(games)
    for totals in engine_review.totals:
        mine = [d for d in checker if d.where.player is totals.player]
        assert totals.rolls == len(mine)
        assert totals.checker_decisions == sum(1 for d in mine if d.counted)
        assert totals.luck == pytest.approx(sum(d.luck for d in mine))


def test_only_close_no_doubles_are_counted(engine_review: MatchReview) -> None:
    for decision in engine_review.decisions:
        if isinstance(decision, CubeDecision) and decision.choice is CubeChoice.NO_DOUBLE:
            double = min(decision.double_take, decision.double_pass)
            assert max(decision.no_double, double) - double < CLOSE_CUBE
    crawford = [g for g in engine_review.games if g.crawford]
    for game in crawford:
        assert not any(isinstance(d, CubeDecision) for d in game.decisions)


def test_a_wrong_double_and_a_wrong_drop() -> None:
    state, events = start_match(RuleSet(length=5))
    log = list(events)
    for action, dice in (
        (OpeningRoll(Player.ZERO), [3, 1]),
        (Move(Player.ZERO, ((8, 5), (6, 5))), []),
        (Double(Player.ONE), []),
        (Drop(Player.ZERO), []),
    ):
        state, more = apply(state, action, ScriptedDice(dice))
        log.extend(more)
    review = review_match(log, "1ply")
    double, drop = [d for d in review.decisions if isinstance(d, CubeDecision)]
    assert (double.where.player, double.choice, double.best) == (
        Player.ONE,
        CubeChoice.DOUBLE,
        CubeChoice.NO_DOUBLE,
    )
    assert double.verdict is Verdict.BLUNDER
    assert (drop.where.player, drop.choice, drop.best) == (
        Player.ZERO,
        CubeChoice.DROP,
        CubeChoice.TAKE,
    )
    assert drop.loss == pytest.approx(drop.double_pass - drop.double_take)
    assert drop.verdict is Verdict.BLUNDER
    assert ":D:" in drop.where.xgid  # the taker's state shows the double offered
    assert review.games[0].winner is Player.ONE


def test_an_unfinished_game_reviews_too(engine_log: list[Event]) -> None:
    cut = engine_log[:40]
    review = review_match(cut, "1ply")
    assert review.games[-1].winner is None
    assert len(review.decisions) >= sum(1 for e in cut if isinstance(e, Played))


def test_review_json_and_progress(engine_log: list[Event]) -> None:
    calls: list[tuple[int, int]] = []
    review = review_match(engine_log[:60], "1ply", lambda done, total: calls.append((done, total)))
    assert calls[0][0] == 0 and calls[-1][0] == calls[-1][1]
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)
    data = json.loads(json.dumps(review.to_json()))
    assert data["thresholds"]["blunder"] == 0.08 and data["thresholds"]["doubtful"] == 0.02
    assert data["level"] == "1ply" and len(data["totals"]) == 2
    kinds = {d["kind"] for game in data["games"] for d in game["decisions"]}
    assert kinds <= {"checker", "cube"} and "checker" in kinds


def test_an_unknown_level_is_refused_at_once() -> None:
    with pytest.raises(EngineError, match="unknown engine depth"):
        review_mat("not even a match file", "4ply")


def _position_before(events: list[Event], played: Played) -> Position:
    state: MatchState | None = None
    for event in events:
        if event is played:
            assert state is not None
            return state.position
        state = apply_event(state, event)
    raise AssertionError("not in the log")
