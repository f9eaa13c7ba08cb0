"""Taking turns: rolling, playing the roll, passing the turn, and refusing what is out of turn."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bidak.errors import IllegalAction, IllegalPlay
from bidak.match import (
    DiceRolled,
    Double,
    Drop,
    MatchState,
    Move,
    OpeningRoll,
    Phase,
    Played,
    Player,
    Roll,
    RuleSet,
    ScriptedDice,
    Take,
    apply,
    new_match,
)
from bidak.rules import Position

NO_DICE = ScriptedDice([])


def opened(dice: tuple[int, int] = (3, 1)) -> MatchState:
    """A 5-point match where ZERO won the opening with ``dice`` and must play them."""
    state, _ = apply(new_match(RuleSet(length=5)), OpeningRoll(Player.ZERO), ScriptedDice(dice))
    assert state.turn is Player.ZERO
    return state


def test_a_play_passes_the_turn_and_flips_the_board() -> None:
    state, events = apply(opened(), Move(Player.ZERO, ((8, 5), (6, 5))), NO_DICE)
    assert events == (Played(Player.ZERO, (3, 1), ((8, 5, False), (6, 5, False)), "8/5 6/5"),)
    assert (state.phase, state.turn, state.dice) == (Phase.ROLL, Player.ONE, None)
    assert state.position.position_id == "sGfwATDgc/ABMA"  # ONE on roll after 8/5 6/5
    state, events = apply(state, Roll(Player.ONE), ScriptedDice([5, 2]))
    assert events == (DiceRolled(Player.ONE, (5, 2)),)
    assert (state.phase, state.dice) == (Phase.MOVE, (5, 2))


@pytest.mark.parametrize(
    "steps",
    [
        ((24, 18), (18, 13)),
        ((18, 13), (24, 18)),  # any order: the rules find the path (rules.md 10)
    ],
)
def test_steps_may_come_in_any_order(steps: tuple[tuple[int, int], ...]) -> None:
    _, events = apply(opened((6, 5)), Move(Player.ZERO, steps), NO_DICE)
    assert isinstance(events[0], Played) and events[0].notation == "24/13"


def test_an_illegal_play_is_refused_with_the_position() -> None:
    with pytest.raises(IllegalPlay, match="4HPwATDgc/ABMA"):
        apply(opened(), Move(Player.ZERO, ((8, 2),)), NO_DICE)
    with pytest.raises(IllegalPlay):
        apply(opened(), Move(Player.ZERO, ()), NO_DICE)  # the roll must be played
    with pytest.raises(IllegalPlay, match="list of steps"):
        apply(opened(), Move(Player.ZERO, (("8", "5"),)), NO_DICE)  # type: ignore[arg-type]


def test_a_roll_that_cannot_be_played_passes_the_turn() -> None:
    # ZERO is on the bar against a closed board: ONE holds its whole home board (rules.md 4).
    closed = Position.from_counts({6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}, bar=(1, 0))
    state = replace(opened(), position=closed, dice=(5, 2))
    state, events = apply(state, Move(Player.ZERO, ()), NO_DICE)
    assert events == (Played(Player.ZERO, (5, 2), (), ""),)
    assert (state.turn, state.phase) == (Player.ONE, Phase.ROLL)


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (Roll(Player.ONE), "It is not your turn"),
        (Move(Player.ONE, ((13, 10),)), "It is not your turn"),
        (Double(Player.ONE), "It is not your turn"),
        (Roll(Player.ZERO), "You have already rolled"),
        (Double(Player.ZERO), "You can only double before rolling"),
        (Take(Player.ONE), "There is no double to answer"),
        (Drop(Player.ZERO), "There is no double to answer"),
    ],
)
def test_actions_out_of_turn_are_refused(action: Roll | Move | Double, message: str) -> None:
    state = opened()
    with pytest.raises(IllegalAction, match=message):
        apply(state, action, ScriptedDice([1, 2]))


def test_playing_before_rolling_is_refused() -> None:
    state, _ = apply(opened(), Move(Player.ZERO, ((8, 5), (6, 5))), NO_DICE)
    with pytest.raises(IllegalAction, match="Roll the dice first"):
        apply(state, Move(Player.ONE, ((13, 10),)), NO_DICE)
    with pytest.raises(IllegalAction, match="It is not your turn"):
        apply(state, Roll(Player.ZERO), ScriptedDice([1, 2]))


def test_a_refused_action_draws_no_dice() -> None:
    dice = ScriptedDice([1, 2])
    with pytest.raises(IllegalAction):
        apply(opened(), Roll(Player.ONE), dice)
    assert dice.remaining == 2


def test_an_unknown_player_is_refused() -> None:
    with pytest.raises(IllegalAction, match="not a player"):
        apply(opened(), Roll(2), NO_DICE)  # type: ignore[arg-type]
