"""Who starts (rules.md 2): one die each, ties thrown again, the higher (or lower) die starts."""

from __future__ import annotations

import pytest

from bidak.errors import IllegalAction, InvalidDice
from bidak.match import (
    Move,
    OpeningRoll,
    OpeningRolled,
    OpeningRule,
    OpeningTie,
    Phase,
    Player,
    Roll,
    RuleSet,
    ScriptedDice,
    apply,
    new_match,
    start_match,
)
from bidak.rules import Position

HIGHER = RuleSet(length=3)
LOWER = RuleSet(length=3, opening=OpeningRule.LOWER_STARTS)


def test_a_match_starts_waiting_for_the_opening_roll() -> None:
    state, events = start_match(HIGHER)
    assert [event.type for event in events] == ["match_started", "game_started"]
    assert (state.phase, state.game, state.score, state.turn) == (Phase.OPENING, 1, (0, 0), None)
    assert state.position == Position.initial()
    assert (state.cube, state.cube_owner, state.version) == (1, None, 2)
    assert new_match(HIGHER) == state


@pytest.mark.parametrize(
    ("rules", "dice", "starter"),
    [
        (HIGHER, [6, 2], Player.ZERO),
        (HIGHER, [2, 6], Player.ONE),
        (LOWER, [6, 2], Player.ONE),
        (LOWER, [2, 6], Player.ZERO),
    ],
)
def test_the_opening_rule_picks_the_starter(
    rules: RuleSet, dice: list[int], starter: Player
) -> None:
    state, events = apply(new_match(rules), OpeningRoll(Player.ONE), ScriptedDice(dice))
    assert events == (OpeningRolled((dice[0], dice[1]), starter),)
    # The starter plays the two opening dice as the first roll.
    assert (state.phase, state.turn, state.dice) == (Phase.MOVE, starter, (dice[0], dice[1]))


def test_ties_are_thrown_again_and_logged() -> None:
    dice = ScriptedDice([4, 4, 1, 1, 3, 5])
    state, events = apply(new_match(HIGHER), OpeningRoll(Player.ZERO), dice)
    assert events == (
        OpeningTie((4, 4)),
        OpeningTie((1, 1)),
        OpeningRolled((3, 5), Player.ONE),
    )
    assert state.turn is Player.ONE and dice.remaining == 0


def test_the_starter_sees_the_board_from_its_own_side() -> None:
    state, _ = apply(new_match(HIGHER), OpeningRoll(Player.ZERO), ScriptedDice([1, 6]))
    assert state.turn is Player.ONE
    state, _ = apply(state, Move(Player.ONE, ((13, 7), (8, 7))), ScriptedDice([]))
    # Now ZERO is on roll and sees ONE's new 7-point as its own 18-point (rules.md 1).
    assert (state.turn, state.phase) == (Player.ZERO, Phase.ROLL)
    assert state.position_for(Player.ONE).count(7) == 2
    assert state.position.count(18) == -2 and state.position.count(12) == -4


def test_the_opening_is_thrown_once() -> None:
    state, _ = apply(new_match(HIGHER), OpeningRoll(Player.ZERO), ScriptedDice([1, 6]))
    with pytest.raises(IllegalAction, match="The opening roll has been thrown"):
        apply(state, OpeningRoll(Player.ZERO), ScriptedDice([2, 3]))


def test_nobody_rolls_two_dice_before_the_opening() -> None:
    with pytest.raises(IllegalAction, match="The game starts with the opening roll"):
        apply(new_match(HIGHER), Roll(Player.ZERO), ScriptedDice([2, 3]))


def test_a_dice_source_that_always_ties_is_an_error() -> None:
    class Stuck:
        def die(self) -> int:
            return 3

    with pytest.raises(InvalidDice):
        apply(new_match(HIGHER), OpeningRoll(Player.ZERO), Stuck())


def test_a_die_out_of_range_is_an_error() -> None:
    class Broken:
        def die(self) -> int:
            return 7

    with pytest.raises(InvalidDice):
        apply(new_match(HIGHER), OpeningRoll(Player.ZERO), Broken())
