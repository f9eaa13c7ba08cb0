"""The doubling cube (rules.md 7): who may double and when, take, drop, Crawford, the 64 limit."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bidak.errors import IllegalAction
from bidak.match import (
    AcceptResign,
    Action,
    Double,
    Doubled,
    Drop,
    Dropped,
    Event,
    GameEnd,
    GameStarted,
    GameWon,
    MatchState,
    MatchWon,
    Move,
    OpeningRoll,
    Phase,
    Player,
    ResignGame,
    Roll,
    RuleSet,
    ScriptedDice,
    Take,
    Taken,
    allowed_actions,
    apply,
    automatic_action,
    can_double,
    new_match,
)
from bidak.rules import Position

ZERO, ONE = Player.ZERO, Player.ONE
FIVE = RuleSet(length=5)


def rolling(rules: RuleSet = FIVE, **changes: object) -> MatchState:
    """``rules``' first game with ZERO on roll, before rolling, at the starting position."""
    fields: dict[str, object] = {"phase": Phase.ROLL, "turn": ZERO, **changes}
    return replace(new_match(rules), **fields)  # type: ignore[arg-type]


def act(
    state: MatchState, *actions: Action, dice: tuple[int, ...] = ()
) -> tuple[MatchState, list[Event]]:
    source = ScriptedDice(dice)
    events: list[Event] = []
    for action in actions:
        state, more = apply(state, action, source)
        events.extend(more)
    assert source.remaining == 0
    return state, events


def test_double_then_take_doubles_the_cube_and_gives_it_to_the_taker() -> None:
    state, events = act(rolling(), Double(ZERO))
    assert events == [Doubled(ZERO, 2)]
    assert (state.phase, state.cube, state.pending_cube) == (Phase.DOUBLED, 1, 2)
    assert allowed_actions(state, ONE) >= {"take", "drop"}
    state, events = act(state, Take(ONE))
    assert events == [Taken(ONE, 2)]
    assert (state.phase, state.turn, state.cube, state.cube_owner) == (Phase.ROLL, ZERO, 2, ONE)
    # The doubler now rolls; the cube is the taker's (rules.md 7).
    assert not can_double(state, ZERO)
    assert automatic_action(state) == Roll(ZERO)
    with pytest.raises(IllegalAction, match="The cube is not yours to double"):
        act(state, Double(ZERO))


def test_the_owner_may_redouble() -> None:
    state = rolling(turn=ONE, cube=2, cube_owner=ONE)
    state, events = act(state, Double(ONE))
    assert events == [Doubled(ONE, 4)]
    state, _ = act(state, Take(ZERO))
    assert (state.cube, state.cube_owner, state.turn) == (4, ZERO, ONE)


def test_a_drop_scores_the_cube_before_the_double_and_never_a_gammon() -> None:
    # ZERO is far ahead: ONE has borne off nothing, a gammon is likely, but a drop is one cube.
    gammonish = Position.from_counts({1: 2}, {13: 15})
    state = rolling(position=gammonish, cube=4, cube_owner=ZERO)
    state, events = act(state, Double(ZERO), Drop(ONE))
    assert events == [
        Doubled(ZERO, 8),
        Dropped(ONE),
        GameWon(ZERO, 4, GameEnd.DROP, (4, 0)),
        GameStarted(2, (4, 0), crawford=True),
    ]
    assert (state.phase, state.cube, state.cube_owner) == (Phase.OPENING, 1, None)


def test_a_drop_can_end_the_match() -> None:
    state, events = act(rolling(score=(3, 0), cube=2, cube_owner=ZERO), Double(ZERO), Drop(ONE))
    assert events[-1] == MatchWon(ZERO, (5, 0))
    assert (state.phase, state.winner) == (Phase.MATCH_OVER, ZERO)


def test_the_cube_stops_at_64() -> None:
    state, events = act(rolling(cube=32, cube_owner=ZERO), Double(ZERO), Take(ONE))
    assert state.cube == 64 and events[0] == Doubled(ZERO, 64)
    with pytest.raises(IllegalAction, match="The cube is already at 64"):
        act(replace(state, turn=ONE), Double(ONE))


@pytest.mark.parametrize(
    ("state", "player", "message"),
    [
        (rolling(), ONE, "It is not your turn"),
        (rolling(dice=(3, 1), phase=Phase.MOVE), ZERO, "You can only double before rolling"),
        (rolling(cube=2, cube_owner=ONE), ZERO, "The cube is not yours to double"),
        (rolling(crawford=True), ZERO, "No doubling in the Crawford game"),
        (rolling(RuleSet(length=5, cube=False)), ZERO, "The cube is off in this room"),
        (rolling(RuleSet(length=1)), ZERO, "There is no doubling in a 1-point match"),
        (rolling(phase=Phase.DOUBLED), ZERO, "Wait for the answer to your double"),
        (rolling(phase=Phase.DOUBLED), ONE, "Take or drop the double first"),
        (new_match(FIVE), ZERO, "The game starts with the opening roll"),
    ],
)
def test_doubles_the_rules_refuse(state: MatchState, player: Player, message: str) -> None:
    assert not can_double(state, player)
    assert "double" not in allowed_actions(state, player)
    with pytest.raises(IllegalAction, match=message):
        act(state, Double(player))


def test_without_a_cube_the_dice_are_rolled_automatically() -> None:
    assert automatic_action(rolling(RuleSet(length=5, cube=False))) == Roll(ZERO)
    assert automatic_action(rolling(RuleSet(length=1))) == Roll(ZERO)
    assert automatic_action(rolling()) is None  # ZERO may double: a decision


def test_only_the_doubled_player_answers() -> None:
    state, _ = act(rolling(), Double(ZERO))
    for action in (Take(ZERO), Drop(ZERO)):
        with pytest.raises(IllegalAction, match="Wait for the answer to your double"):
            act(state, action)
    with pytest.raises(IllegalAction, match="Take or drop the double first"):
        act(state, Roll(ONE))


# -- Crawford (rules.md 7), game by game with scripted opening rolls --------------------------


def resign_game(
    state: MatchState, loser: Player, level: int, opening: tuple[int, int] | None = None
) -> MatchState:
    """Throw the ``opening`` roll (if given) and let ``loser`` resign the game at ``level``."""
    if opening is not None:
        state, _ = act(state, OpeningRoll(ZERO), dice=opening)
    state, _ = act(state, ResignGame(loser, level), AcceptResign(loser.opponent))
    return state


def test_crawford_game_then_post_crawford_games() -> None:
    state = new_match(FIVE)
    state = resign_game(state, ZERO, 3, (5, 2))  # ONE leads 3-0
    assert (state.game, state.crawford, state.post_crawford) == (2, False, False)
    state = resign_game(state, ZERO, 1, (5, 2))  # ONE reaches 4 = match length - 1
    assert (state.score, state.game, state.crawford) == ((0, 4), 3, True)

    # In the Crawford game nobody may double, so the dice are rolled automatically.
    state, _ = act(state, OpeningRoll(ZERO), Move(ZERO, ((8, 5), (6, 5))), dice=(3, 1))
    assert state.turn is ONE and not can_double(state, ONE)
    assert automatic_action(state) == Roll(ONE)
    with pytest.raises(IllegalAction, match="No doubling in the Crawford game"):
        act(state, Double(ONE))
    # Gammons count in the Crawford game.
    state, events = act(state, ResignGame(ONE, 2), AcceptResign(ZERO))
    assert events[-2] == GameWon(ZERO, 2, GameEnd.RESIGN, (2, 4))
    assert (state.game, state.crawford, state.post_crawford) == (4, False, True)

    # Post-Crawford: doubling is allowed again.
    state, _ = act(state, OpeningRoll(ZERO), Move(ZERO, ((8, 5), (6, 5))), dice=(3, 1))
    assert can_double(state, ONE)
    state = resign_game(state, ONE, 2)
    # ZERO reaches 4 too: there is no second Crawford game.
    assert (state.score, state.crawford, state.post_crawford) == ((4, 4), False, True)


def test_the_game_after_a_jump_to_match_point_is_the_crawford_game() -> None:
    state = resign_game(new_match(RuleSet(length=3)), ONE, 2, (6, 1))
    assert (state.score, state.crawford) == ((2, 0), True)
