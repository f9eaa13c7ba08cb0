"""Winning a game (rules.md 6): single, gammon and backgammon, times the cube; the match end."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bidak.match import (
    GameEnd,
    GameStarted,
    GameWon,
    MatchState,
    MatchWon,
    Move,
    Phase,
    Played,
    Player,
    RuleSet,
    ScriptedDice,
    apply,
    new_match,
)
from bidak.rules import Position

ZERO, ONE = Player.ZERO, Player.ONE

# ZERO (on roll) bears off its last checker from its 2-point; what ONE still has decides the kind.
LAST_CHECKER = {
    # ONE has borne off 10: a single game.
    GameEnd.SINGLE: Position.from_counts({2: 1}, {6: 5}),
    # ONE has borne off none, all in its own home board: a gammon.
    GameEnd.GAMMON: Position.from_counts({2: 1}, {6: 15}),
    # ONE has borne off none and still has a checker in ZERO's home board: a backgammon.
    GameEnd.BACKGAMMON: Position.from_counts({2: 1}, {6: 14, 20: 1}),
}


def bearing_off(position: Position, cube: int, score: tuple[int, int] = (0, 0)) -> MatchState:
    return replace(
        new_match(RuleSet(length=25)),
        phase=Phase.MOVE,
        turn=ZERO,
        position=position,
        dice=(6, 5),
        cube=cube,
        cube_owner=None if cube == 1 else ONE,
        score=score,
    )


@pytest.mark.parametrize("cube", [1, 2, 4])
@pytest.mark.parametrize(("kind", "multiple"), [("single", 1), ("gammon", 2), ("backgammon", 3)])
def test_a_game_is_worth_its_kind_times_the_cube(kind: str, multiple: int, cube: int) -> None:
    end = GameEnd(kind)
    state, events = apply(
        bearing_off(LAST_CHECKER[end], cube, score=(3, 1)), Move(ZERO, ((2, 0),)), ScriptedDice([])
    )
    points = multiple * cube
    assert events == (
        Played(ZERO, (6, 5), ((2, 0, False),), "2/off"),
        GameWon(ZERO, points, end, (3 + points, 1)),
        GameStarted(2, (3 + points, 1), crawford=3 + points == 24),
    )
    assert (state.phase, state.game, state.cube, state.turn) == (Phase.OPENING, 2, 1, None)


def test_a_checker_on_the_bar_makes_a_backgammon() -> None:
    position = Position.from_counts({2: 1}, {6: 14}, bar=(0, 1))
    _, events = apply(bearing_off(position, 2), Move(ZERO, ((2, 0),)), ScriptedDice([]))
    assert events[1] == GameWon(ZERO, 6, GameEnd.BACKGAMMON, (6, 0))


def test_reaching_the_match_length_wins_the_match_and_the_score_is_not_capped() -> None:
    state = replace(
        bearing_off(LAST_CHECKER[GameEnd.GAMMON], 4, score=(3, 2)), rules=RuleSet(length=5)
    )
    state, events = apply(state, Move(ZERO, ((2, 0),)), ScriptedDice([]))
    assert events[1:] == (GameWon(ZERO, 8, GameEnd.GAMMON, (11, 2)), MatchWon(ZERO, (11, 2)))
    assert (state.phase, state.winner, state.score, state.turn) == (
        Phase.MATCH_OVER,
        ZERO,
        (11, 2),
        None,
    )
    # The final position stays on view, from ZERO's side.
    assert state.position.off.mover == 15


def test_the_final_position_is_kept_from_player_zeros_view() -> None:
    state = replace(bearing_off(LAST_CHECKER[GameEnd.SINGLE], 1), turn=ONE, rules=RuleSet(length=1))
    state, _ = apply(state, Move(ONE, ((2, 0),)), ScriptedDice([]))
    assert state.winner is ONE
    assert state.position.off.opponent == 15 and state.position_for(ONE).off.mover == 15
    assert state.away(ONE) == 0 and state.away(ZERO) == 1
