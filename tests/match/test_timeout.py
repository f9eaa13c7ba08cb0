"""Timeouts under the two room policies (rules.md 9), and switching autoplay."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bidak.errors import IllegalAction
from bidak.match import (
    Action,
    AutoplayChanged,
    DiceRolled,
    Double,
    Doubled,
    ForfeitMatch,
    MatchForfeited,
    MatchState,
    MatchWon,
    Move,
    Phase,
    Played,
    Player,
    Roll,
    RuleSet,
    ScriptedDice,
    SetAutoplay,
    Take,
    Taken,
    TimedOut,
    Timeout,
    TimeoutPolicy,
    apply,
    new_match,
)

ZERO, ONE = Player.ZERO, Player.ONE
AUTOPLAY = RuleSet(length=5, timeout_policy=TimeoutPolicy.AUTOPLAY)
STRIKES = RuleSet(length=5, timeout_policy=TimeoutPolicy.THREE_STRIKES)


def rolling(rules: RuleSet, **changes: object) -> MatchState:
    fields: dict[str, object] = {"phase": Phase.ROLL, "turn": ZERO, **changes}
    return replace(new_match(rules), **fields)  # type: ignore[arg-type]


def test_autoplay_policy_plays_the_fallback_and_hands_the_seat_to_the_bot() -> None:
    state, events = apply(rolling(AUTOPLAY), Timeout(ZERO, Roll(ZERO)), ScriptedDice([3, 1]))
    assert events == (TimedOut(ZERO, 1), AutoplayChanged(ZERO, True), DiceRolled(ZERO, (3, 1)))
    assert (state.autoplay, state.strikes, state.phase) == ((True, False), (1, 0), Phase.MOVE)

    # Already on autoplay: no second switch.
    state, events = apply(state, Timeout(ZERO, Move(ZERO, ((8, 5), (6, 5)))), ScriptedDice([]))
    assert events == (
        TimedOut(ZERO, 2),
        Played(ZERO, (3, 1), ((8, 5, False), (6, 5, False)), "8/5 6/5"),
    )
    assert state.autoplay == (True, False) and state.phase is not Phase.MATCH_OVER

    # The player takes back control.
    state, events = apply(state, SetAutoplay(ZERO, False), ScriptedDice([]))
    assert events == (AutoplayChanged(ZERO, False),) and state.autoplay == (False, False)
    _, events = apply(state, SetAutoplay(ZERO, False), ScriptedDice([]))
    assert events == ()


def test_a_timeout_may_answer_a_double() -> None:
    doubled = rolling(AUTOPLAY, phase=Phase.DOUBLED)
    _, events = apply(doubled, Timeout(ONE, Take(ONE)), ScriptedDice([]))
    assert events == (TimedOut(ONE, 1), AutoplayChanged(ONE, True), Taken(ONE, 2))


def test_three_strikes_policy_plays_the_fallback_twice_then_loses_the_match() -> None:
    state = rolling(STRIKES, score=(1, 2))
    state, events = apply(state, Timeout(ZERO, Roll(ZERO)), ScriptedDice([3, 1]))
    assert events == (TimedOut(ZERO, 1), DiceRolled(ZERO, (3, 1)))
    state = replace(state, phase=Phase.ROLL, dice=None)
    state, events = apply(state, Timeout(ZERO, Roll(ZERO)), ScriptedDice([5, 2]))
    assert events == (TimedOut(ZERO, 2), DiceRolled(ZERO, (5, 2)))
    assert state.autoplay == (False, False) and state.strikes == (2, 0)

    state = replace(state, phase=Phase.ROLL, dice=None)
    dice = ScriptedDice([4, 4])
    state, events = apply(state, Timeout(ZERO, Roll(ZERO)), dice)
    assert events == (TimedOut(ZERO, 3), MatchForfeited(ZERO), MatchWon(ONE, (1, 5)))
    assert (state.phase, state.winner, dice.remaining) == (Phase.MATCH_OVER, ONE, 2)


def test_strikes_are_counted_per_player() -> None:
    state = rolling(STRIKES, strikes=(2, 0), phase=Phase.DOUBLED)
    state, events = apply(state, Timeout(ONE, Take(ONE)), ScriptedDice([]))
    assert events == (TimedOut(ONE, 1), Taken(ONE, 2)) and state.strikes == (2, 1)


@pytest.mark.parametrize("rules", [AUTOPLAY, STRIKES])
@pytest.mark.parametrize(
    ("state_changes", "timeout", "message"),
    [
        ({}, Timeout(ONE, Roll(ONE)), "Player 1 is not on the clock"),
        ({}, Timeout(ZERO, Roll(ONE)), "an action of the player who timed out"),
        ({}, Timeout(ZERO, ForfeitMatch(ZERO)), "falls back to a roll, a play"),
        ({}, Timeout(ZERO, SetAutoplay(ZERO, True)), "falls back to a roll, a play"),
        ({}, Timeout(ZERO, Timeout(ZERO, Roll(ZERO))), "falls back to a roll, a play"),
        ({"phase": Phase.MOVE, "dice": (3, 1)}, Timeout(ZERO, Roll(ZERO)), "already rolled"),
        ({"phase": Phase.OPENING, "turn": None}, Timeout(ZERO, Roll(ZERO)), "not on the clock"),
        ({"strikes": (2, 0)}, Timeout(ZERO, Move(ZERO, ((8, 5),))), "Roll the dice first"),
    ],
)
def test_a_timeout_needs_a_legal_fallback_of_the_player_on_the_clock(
    rules: RuleSet, state_changes: dict[str, object], timeout: Timeout, message: str
) -> None:
    state = rolling(rules, **state_changes)
    dice = ScriptedDice([2, 1])
    with pytest.raises(IllegalAction, match=message):
        apply(state, timeout, dice)
    assert dice.remaining == 2


def test_a_double_is_a_possible_fallback() -> None:
    action: Action = Timeout(ZERO, Double(ZERO))
    _, events = apply(rolling(STRIKES), action, ScriptedDice([]))
    assert events == (TimedOut(ZERO, 1), Doubled(ZERO, 2))
