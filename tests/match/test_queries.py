"""Questions the server and clients ask: who acts, what they may do, what happens by itself."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bidak.match import (
    MatchState,
    Move,
    OpeningRoll,
    Phase,
    Player,
    Roll,
    RuleSet,
    ScriptedDice,
    allowed_actions,
    apply,
    automatic_action,
    current_plays,
    decider,
    forced_play,
    new_match,
)
from bidak.rules import Position

ZERO, ONE = Player.ZERO, Player.ONE
ALWAYS = {"forfeit", "set_autoplay"}


def at(phase: Phase, **changes: object) -> MatchState:
    fields: dict[str, object] = {"phase": phase, "turn": ZERO, **changes}
    return replace(new_match(RuleSet(length=5)), **fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("state", "who", "zero_may", "one_may"),
    [
        (new_match(RuleSet(length=5)), None, {"opening_roll"}, {"opening_roll"}),
        (at(Phase.ROLL), ZERO, {"roll", "double", "resign"}, {"resign"}),
        (at(Phase.ROLL, crawford=True), ZERO, {"roll", "resign"}, {"resign"}),
        (at(Phase.MOVE, dice=(3, 1)), ZERO, {"move", "resign"}, {"resign"}),
        (at(Phase.DOUBLED), ONE, set(), {"take", "drop"}),
        (
            at(Phase.RESIGN_OFFERED, resigner=ONE, resign_stakes=1),
            ZERO,
            {"accept_resign", "reject_resign"},
            set(),
        ),
    ],
)
def test_who_acts_and_what_each_player_may_do(
    state: MatchState, who: Player | None, zero_may: set[str], one_may: set[str]
) -> None:
    assert decider(state) is who
    assert allowed_actions(state, ZERO) == zero_may | ALWAYS
    assert allowed_actions(state, ONE) == one_may | ALWAYS


def test_current_plays_exist_only_after_rolling() -> None:
    assert current_plays(at(Phase.ROLL)) == []
    plays = current_plays(at(Phase.MOVE, dice=(3, 1)))
    assert len(plays) == 16 and "8/5 6/5" in {str(play) for play in plays}
    assert forced_play(at(Phase.MOVE, dice=(3, 1))) is None


def test_the_opening_roll_is_automatic() -> None:
    assert automatic_action(new_match(RuleSet(length=3))) == OpeningRoll(ZERO)


def test_a_player_who_may_double_decides_and_one_who_may_not_rolls() -> None:
    assert automatic_action(at(Phase.ROLL)) is None
    assert automatic_action(at(Phase.ROLL, cube=2, cube_owner=ONE)) == Roll(ZERO)


def test_a_forced_play_is_played_automatically() -> None:
    # One checker left on the 2-point: a 6-5 bears it off, whichever die is used.
    last = Position.from_counts({2: 1}, {6: 5})
    state = at(Phase.MOVE, position=last, dice=(6, 5))
    play = forced_play(state)
    assert play is not None and str(play) == "2/off"
    assert automatic_action(state) == Move(ZERO, ((2, 0),))


def test_a_roll_that_cannot_be_played_is_passed_automatically() -> None:
    closed = Position.from_counts({6: 14}, {p: 2 for p in range(1, 7)} | {13: 3}, bar=(1, 0))
    state = at(Phase.MOVE, position=closed, dice=(4, 4))
    play = forced_play(state)
    assert play is not None and play.steps == ()
    action = automatic_action(state)
    assert action == Move(ZERO, ())
    state, _ = apply(state, action, ScriptedDice([]))
    assert (state.turn, state.phase) == (ONE, Phase.ROLL)


@pytest.mark.parametrize(
    "state",
    [
        at(Phase.DOUBLED),
        at(Phase.RESIGN_OFFERED, resigner=ONE, resign_stakes=1),
        at(Phase.MATCH_OVER, turn=None, winner=ZERO),
    ],
)
def test_decisions_are_never_automatic(state: MatchState) -> None:
    assert automatic_action(state) is None


def test_following_automatic_actions_reaches_a_decision() -> None:
    """The server's loop: apply automatic actions until a player has to choose."""
    state = new_match(RuleSet(length=3, cube=False))
    dice = ScriptedDice([6, 5])
    action = automatic_action(state)
    while action is not None:
        state, _ = apply(state, action, dice)
        action = automatic_action(state)
    # ZERO won the opening with 6-5, which can be played in several ways: ZERO must choose.
    assert (state.phase, state.turn, state.dice, action) == (Phase.MOVE, ZERO, (6, 5), None)
