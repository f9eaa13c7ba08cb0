""":func:`allowed_actions` keeps its answers by :func:`allowed_key`; at every state of random
matches (the cube, resignations, timeouts, auto-play, forfeits, Crawford) the kept answer is
what the refusals themselves say, for both players."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bidak.match import (
    MatchState,
    Phase,
    Player,
    RuleSet,
    SeededDice,
    allowed_actions,
    apply,
    start_match,
)
from bidak.match.checks import MAX_CUBE, REFUSALS
from bidak.match.simulate import Habits, random_action

RESTLESS = Habits(resign=0.05, timeout=0.05, autoplay=0.05, forfeit=0.0)


def _asked(state: MatchState, player: Player) -> frozenset[str]:
    return frozenset(name for name, refuse in REFUSALS.items() if refuse(state, player) is None)


@pytest.mark.parametrize(
    ("seed", "rules"),
    [
        (1, RuleSet(length=5)),
        (2, RuleSet(length=1)),
        (3, RuleSet(length=3, cube=False)),
        (4, RuleSet(length=7)),
    ],
)
def test_the_kept_answer_is_the_refusals_answer(seed: int, rules: RuleSet) -> None:
    rng, dice = random.Random(seed), SeededDice(f"allowed:{seed}")
    state, _ = start_match(rules)
    asked = 0
    while state.phase is not Phase.MATCH_OVER and asked < 4_000:
        for player in (Player.ZERO, Player.ONE):
            assert allowed_actions(state, player) == _asked(state, player), state
            asked += 1
        state, _ = apply(state, random_action(state, rng, RESTLESS), dice)
    assert asked > 50


def test_a_cube_at_its_highest_and_auto_play_are_told_apart() -> None:
    state, _ = start_match(RuleSet(length=9))
    state = replace(state, phase=Phase.ROLL, turn=Player.ZERO)
    plain = allowed_actions(state, Player.ZERO)
    assert "double" in plain
    topped = replace(state, cube=MAX_CUBE)
    away = replace(state, autoplay=(True, False))
    for other in (topped, away):
        assert allowed_actions(other, Player.ZERO) == _asked(other, Player.ZERO)
        assert "double" not in allowed_actions(other, Player.ZERO)
    assert allowed_actions(state, Player.ZERO) == plain
