"""Timeouts under the two room policies (rules.md 9), and switching autoplay.

A timeout's fallback is a roll at the roll decision (never a double), a rejection of a
resignation on the table, and otherwise a play or an answer to a double; a strike is counted once
per turn and the third of a match loses it in a three-strikes room.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from bidak.errors import IllegalAction
from bidak.match import (
    AcceptResign,
    AutoplayChanged,
    DiceRolled,
    Double,
    ForfeitMatch,
    GameStarted,
    MatchForfeited,
    MatchState,
    MatchWon,
    Move,
    OpeningRoll,
    Phase,
    Played,
    Player,
    RejectResign,
    ResignGame,
    ResignRejected,
    Roll,
    RuleSet,
    ScriptedDice,
    SetAutoplay,
    Take,
    Taken,
    TimedOut,
    Timeout,
    TimeoutPolicy,
    allowed_actions,
    apply,
    automatic_action,
    fixed_fallback,
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

    # Already on autoplay: no second switch (and the same turn: no second strike).
    state, events = apply(state, Timeout(ZERO, Move(ZERO, ((8, 5), (6, 5)))), ScriptedDice([]))
    assert events == (
        TimedOut(ZERO, 1),
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


def test_a_turn_whose_roll_decision_and_play_both_time_out_is_one_strike() -> None:
    state = rolling(STRIKES)
    state, events = apply(state, Timeout(ZERO, Roll(ZERO)), ScriptedDice([3, 1]))
    assert events == (TimedOut(ZERO, 1, 2), DiceRolled(ZERO, (3, 1)))
    state, events = apply(state, Timeout(ZERO, Move(ZERO, ((8, 5), (6, 5)))), ScriptedDice([]))
    assert events[0] == TimedOut(ZERO, 1, 2) and isinstance(events[1], Played)
    assert state.strikes == (1, 0) and state.turn is ONE and state.struck == (False, False)

    # ONE plays; ZERO's next turn is a new one, and its timeout a new strike.
    state, _ = apply(state, Roll(ONE), ScriptedDice([6, 5]))
    state, _ = apply(state, Move(ONE, ((24, 18), (18, 13))), ScriptedDice([]))
    state, events = apply(state, Timeout(ZERO, Roll(ZERO)), ScriptedDice([2, 1]))
    assert events[0] == TimedOut(ZERO, 2, 1) and state.strikes == (2, 0)


def test_the_third_strike_of_the_match_loses_it_even_games_apart() -> None:
    state = rolling(STRIKES)
    # Game 1: a strike, then ZERO resigns the game and ONE accepts.
    state, _ = apply(state, Timeout(ZERO, Roll(ZERO)), ScriptedDice([3, 1]))
    state, _ = apply(state, ResignGame(ZERO, 1), ScriptedDice([]))
    state, events = apply(state, AcceptResign(ONE), ScriptedDice([]))
    assert events[-1] == GameStarted(2, (0, 1), crawford=False)
    assert state.strikes == (1, 0) and state.struck == (False, False)

    # Game 2: ZERO starts; the play times out (strike 2), later the roll decision (strike 3).
    state, _ = apply(state, OpeningRoll(ZERO), ScriptedDice([5, 2]))
    state, events = apply(state, Timeout(ZERO, Move(ZERO, ((13, 8), (13, 11)))), ScriptedDice([]))
    assert events[0] == TimedOut(ZERO, 2, 1)
    state, _ = apply(state, Roll(ONE), ScriptedDice([3, 1]))
    state, _ = apply(state, Move(ONE, ((8, 5), (6, 5))), ScriptedDice([]))
    dice = ScriptedDice([4, 4])
    state, events = apply(state, Timeout(ZERO, Roll(ZERO)), dice)
    # Lost on time is scored as a forfeit: ONE is given the match length, ZERO keeps 0.
    assert events == (TimedOut(ZERO, 3, 0), MatchForfeited(ZERO), MatchWon(ONE, (0, 5)))
    assert (state.phase, state.winner, dice.remaining) == (Phase.MATCH_OVER, ONE, 2)


def test_the_autoplay_policy_counts_strikes_but_never_loses_on_them() -> None:
    state = rolling(AUTOPLAY, strikes=(7, 0))
    state, events = apply(state, Timeout(ZERO, Roll(ZERO)), ScriptedDice([3, 1]))
    assert events[0] == TimedOut(ZERO, 8, None) and state.phase is Phase.MOVE


def test_strikes_are_counted_per_player() -> None:
    state = rolling(STRIKES, strikes=(2, 0), phase=Phase.DOUBLED)
    state, events = apply(state, Timeout(ONE, Take(ONE)), ScriptedDice([]))
    assert events == (TimedOut(ONE, 1, 2), Taken(ONE, 2)) and state.strikes == (2, 1)


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


@pytest.mark.parametrize("rules", [AUTOPLAY, STRIKES])
def test_a_timeout_at_the_roll_decision_rolls_and_never_doubles(rules: RuleSet) -> None:
    state = rolling(rules)
    assert "double" in allowed_actions(state, ZERO)  # the cube is there to be turned
    assert fixed_fallback(state, ZERO) == Roll(ZERO)
    dice = ScriptedDice([2, 1])
    with pytest.raises(IllegalAction, match="A timeout never doubles"):
        apply(state, Timeout(ZERO, Double(ZERO)), dice)
    assert dice.remaining == 2
    state, events = apply(state, Timeout(ZERO, Roll(ZERO)), dice)
    assert events[-1] == DiceRolled(ZERO, (2, 1)) and state.cube == 1


def test_a_timeout_rejects_a_resignation_on_the_table() -> None:
    state, _ = apply(rolling(STRIKES), ResignGame(ZERO, 2), ScriptedDice([]))
    assert fixed_fallback(state, ONE) == RejectResign(ONE)
    with pytest.raises(IllegalAction, match="rejects the resignation"):
        apply(state, Timeout(ONE, AcceptResign(ONE)), ScriptedDice([]))
    state, events = apply(state, Timeout(ONE, RejectResign(ONE)), ScriptedDice([]))
    assert events == (TimedOut(ONE, 1, 2), ResignRejected(ONE)) and state.phase is Phase.ROLL


def test_a_play_and_an_answer_to_a_double_are_left_to_a_bot() -> None:
    assert fixed_fallback(rolling(STRIKES, phase=Phase.MOVE, dice=(3, 1)), ZERO) is None
    assert fixed_fallback(rolling(STRIKES, phase=Phase.DOUBLED), ONE) is None
    assert fixed_fallback(rolling(STRIKES), ONE) is None  # not ONE's decision


def test_auto_play_never_doubles_for_a_person() -> None:
    state = rolling(AUTOPLAY, autoplay=(True, False))
    assert "double" not in allowed_actions(state, ZERO)
    with pytest.raises(IllegalAction, match="Auto-play never doubles"):
        apply(state, Double(ZERO), ScriptedDice([]))
    # With nothing to choose, the roll is an automatic step.
    assert automatic_action(state) == Roll(ZERO)
    # Taking back control gives the cube back.
    state, _ = apply(state, SetAutoplay(ZERO, False), ScriptedDice([]))
    assert "double" in allowed_actions(state, ZERO) and automatic_action(state) is None
