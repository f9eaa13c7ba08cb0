"""Hints: the engine's ranked plays and cube verdicts, as plain JSON-ready data (1-ply: fast)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from bidak.engine.hints import (
    CubeAction,
    CubeHint,
    PlayHint,
    cube_available,
    cube_hint,
    play_hint,
    state_hint,
)
from bidak.engine.sage import Context, CubeOwner, EngineError, from_board
from bidak.formats.ids import read_any_id
from bidak.match import Phase, Player, RuleSet, new_match
from bidak.rules import Position, legal_plays

MIDDLE = from_board(
    [0, -2, 0, 0, 0, 2, 4, 0, 3, 0, 0, 0, -4, 4, 0, 0, 0, -2, -2, -3, -2, 0, 0, 0, 2, 0]
)
STRONG = from_board(
    [2, -2, 0, 0, 2, 2, 3, 2, 2, 2, 0, 0, -3, 0, 0, 0, 0, -2, 0, -3, -2, 0, 0, 0, 2, 0]
)
RACE = read_any_id("XGID=---BCCD-B-A--a-a-b-dcca---:0:0:1:00:2:1:0:7:10").position


@pytest.mark.parametrize(
    ("position", "dice", "context"),
    [
        (Position.initial(), (3, 1), Context()),
        (MIDDLE, (4, 2), Context(2, CubeOwner.MOVER, (3, 5))),
        (MIDDLE, (3, 3), Context(away=(7, 7))),
        (RACE, (6, 5), Context(away=(5, 6))),
    ],
)
def test_plays_are_every_legal_play_ranked_best_first(
    position: Position, dice: tuple[int, int], context: Context
) -> None:
    hint = play_hint(position, dice, context, "1ply")
    equities = [candidate.equity for candidate in hint.candidates]
    assert equities == sorted(equities, reverse=True)
    assert hint.candidates[0].loss == 0.0
    assert [c.rank for c in hint.candidates] == list(range(1, len(hint.candidates) + 1))
    legal = {play.result: play for play in legal_plays(position, dice)}
    assert {c.play.result for c in hint.candidates} == set(legal)
    for candidate in hint.candidates:
        assert candidate.play == legal[candidate.play.result]
        assert candidate.loss == pytest.approx(hint.best.equity - candidate.equity)
        chances = candidate.probabilities
        values = (chances.win, chances.win_gammon, chances.win_backgammon)
        assert all(0.0 <= value <= 1.0 for value in (*values, chances.lose_gammon))
        assert chances.win_backgammon <= chances.win_gammon <= chances.win
        assert chances.lose_backgammon <= chances.lose_gammon <= 1.0 - chances.win + 1e-6


def test_a_play_hint_is_json_with_notation_and_steps() -> None:
    hint = play_hint(Position.initial(), (3, 1), ply="1ply")
    data = json.loads(json.dumps(hint.to_json()))
    assert data["kind"] == "plays" and data["dice"] == [3, 1]
    best = data["candidates"][0]
    assert best["notation"] == "8/5 6/5"
    assert sorted(best["steps"]) == [[6, 5, False], [8, 5, False]]
    assert best["loss"] == 0.0 and best["rank"] == 1
    assert set(best["probabilities"]) == {
        "win",
        "win_gammon",
        "win_backgammon",
        "lose_gammon",
        "lose_backgammon",
    }


def test_a_roll_that_cannot_be_played_has_one_empty_candidate() -> None:
    closed = Position.from_counts({6: 14}, {p: 2 for p in range(1, 7)} | {12: 3}, bar=(1, 0))
    hint = play_hint(closed, (6, 5), ply="1ply")
    assert len(hint.candidates) == 1
    assert hint.best.notation == "" and hint.best.steps == ()


def test_double_take_where_doubling_is_right() -> None:
    # A race at 5-away 6-away that the formats reference lists as a cube decision.
    hint = cube_hint(RACE, Context(away=(5, 6)), "1ply")
    assert hint.verdict.should_double and hint.verdict.should_take
    assert hint.action is CubeAction.DOUBLE_TAKE and hint.right_action == "double"
    assert hint.verdict.double_take > hint.verdict.no_double
    assert hint.verdict.best_equity == pytest.approx(hint.verdict.double_take)


def test_double_pass_and_the_taker_question() -> None:
    hint = cube_hint(STRONG, Context(away=(3, 5)), "1ply", for_taker=True)
    assert hint.action is CubeAction.DOUBLE_PASS
    assert hint.right_action == "drop"
    data = json.loads(json.dumps(hint.to_json()))
    assert data["kind"] == "cube" and data["label"] == "Double, pass"
    assert data["double_pass"] == pytest.approx(1.0, abs=1e-5)


def test_no_double_at_the_start() -> None:
    hint = cube_hint(Position.initial(), Context(away=(7, 7)), "1ply")
    assert hint.action is CubeAction.NO_DOUBLE_TAKE and hint.right_action == "no_double"


@pytest.mark.parametrize(
    ("context", "available"),
    [
        (Context(), True),
        (Context(2, CubeOwner.MOVER), True),
        (Context(2, CubeOwner.OPPONENT), False),
        (Context(away=(5, 1), crawford=True), False),
        (Context(2, CubeOwner.MOVER, (3, 4)), True),
        (Context(2, CubeOwner.MOVER, (2, 4)), False),  # a win at 2 takes the match already
        (Context(1, CubeOwner.CENTRED, (1, 4)), False),  # the post-Crawford leader
    ],
)
def test_when_the_cube_is_available(context: Context, available: bool) -> None:
    assert cube_available(context) is available


def test_state_hints_follow_the_phase() -> None:
    state = new_match(RuleSet(length=5))
    assert state_hint(state, "1ply") is None  # the opening roll: nothing to decide
    playing = replace(state, phase=Phase.MOVE, turn=Player.ZERO, dice=(3, 1))
    plays = state_hint(playing, "1ply")
    assert isinstance(plays, PlayHint) and plays.best.notation == "8/5 6/5"
    rolling = replace(playing, phase=Phase.ROLL, dice=None)
    cube = state_hint(rolling, "1ply")
    assert isinstance(cube, CubeHint) and not cube.for_taker and cube.available
    doubled = replace(rolling, phase=Phase.DOUBLED)
    taker = state_hint(doubled, "1ply")
    assert isinstance(taker, CubeHint) and taker.for_taker
    assert taker.right_action in ("take", "drop")
    assert state_hint(replace(rolling, crawford=True), "1ply") is None


def test_a_race_is_advised_one_ply_deeper_than_the_2ply_asked_for() -> None:
    """The money duel's 4-3 where bgsage's 2ply advised leaving three checkers to be
    backgammoned (``tests/engine/test_expert_misses.py``): the hint a player gets is the play
    that saves them; asked with an engine of its own, the hint keeps to it."""
    from bidak.engine.hints import shared_evaluator
    from tests.engine.test_expert_misses import RACE_MISSES, state_of

    record = RACE_MISSES[0]
    state = state_of(record)
    advice = state_hint(state)
    assert isinstance(advice, PlayHint) and advice.ply == "3ply"
    assert advice.best.play.result.position_id == record["gnubg"]
    pinned = state_hint(state, evaluator=shared_evaluator("2ply"))
    assert isinstance(pinned, PlayHint) and pinned.ply == "2ply"
    assert pinned.best.play.result.position_id == record["expert"]


def test_a_finished_game_and_an_unknown_level_are_refused() -> None:
    over = Position.from_counts({}, {6: 3})
    with pytest.raises(EngineError, match="game is over"):
        play_hint(over, (3, 1), ply="1ply")
    with pytest.raises(EngineError, match="unknown engine depth"):
        play_hint(Position.initial(), (3, 1), ply="9ply")
