"""Resigning a game for 1, 2 or 3 times the cube (rules.md 8), and forfeiting the match."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bidak.errors import IllegalAction
from bidak.match import (
    AcceptResign,
    Action,
    Double,
    ForfeitMatch,
    GameEnd,
    GameStarted,
    GameWon,
    MatchForfeited,
    MatchState,
    MatchWon,
    OpeningRoll,
    Phase,
    Player,
    RejectResign,
    ResignAccepted,
    ResignGame,
    ResignOffered,
    ResignRejected,
    Roll,
    RuleSet,
    ScriptedDice,
    SetAutoplay,
    Take,
    allowed_actions,
    apply,
    decider,
    new_match,
)

ZERO, ONE = Player.ZERO, Player.ONE
NO_DICE = ScriptedDice([])


def rolling(**changes: object) -> MatchState:
    fields: dict[str, object] = {"phase": Phase.ROLL, "turn": ZERO, **changes}
    return replace(new_match(RuleSet(length=7)), **fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(("level", "cube"), [(1, 1), (2, 2), (3, 2)])
def test_an_accepted_resignation_scores_level_times_cube(level: int, cube: int) -> None:
    state, events = apply(rolling(cube=cube, cube_owner=ONE), ResignGame(ZERO, level), NO_DICE)
    assert events == (ResignOffered(ZERO, level),)
    assert (state.phase, state.resign_stakes, state.resigner) == (Phase.RESIGN_OFFERED, level, ZERO)
    assert decider(state) is ONE
    assert allowed_actions(state, ONE) == {
        "accept_resign",
        "reject_resign",
        "forfeit",
        "set_autoplay",
    }
    state, events = apply(state, AcceptResign(ONE), NO_DICE)
    points = level * cube
    assert events == (
        ResignAccepted(ONE),
        GameWon(ONE, points, GameEnd.RESIGN, (0, points)),
        GameStarted(2, (0, points), crawford=points == 6),
    )
    assert (state.phase, state.resign_stakes, state.resigner) == (Phase.OPENING, 0, None)


def test_a_rejected_resignation_returns_to_the_roll_exactly() -> None:
    before = rolling(cube=2, cube_owner=ZERO)
    offered, _ = apply(before, ResignGame(ZERO, 1), NO_DICE)
    after, events = apply(offered, RejectResign(ONE), NO_DICE)
    assert events == (ResignRejected(ONE),)
    assert after == replace(before, version=before.version + 2)


def test_the_opponent_of_the_mover_may_resign_and_play_resumes_with_the_same_dice() -> None:
    before, _ = apply(rolling(), Roll(ZERO), ScriptedDice([6, 4]))
    offered, _ = apply(before, ResignGame(ONE, 3), NO_DICE)
    assert decider(offered) is ZERO
    after, _ = apply(offered, RejectResign(ZERO), NO_DICE)
    assert after == replace(before, version=before.version + 2)
    assert (after.phase, after.dice) == (Phase.MOVE, (6, 4))


@pytest.mark.parametrize(
    ("state", "action", "message"),
    [
        (new_match(RuleSet(length=7)), ResignGame(ZERO, 1), "once the game is under way"),
        (rolling(phase=Phase.DOUBLED), ResignGame(ONE, 1), "Take or drop the double first"),
        (
            rolling(),
            ResignGame(ZERO, 4),
            r"single game \(1\), a gammon \(2\) or a backgammon \(3\)",
        ),
        (rolling(), ResignGame(ZERO, 0), "a backgammon"),
        (rolling(), AcceptResign(ONE), "No resignation is on the table"),
        (rolling(), RejectResign(ONE), "No resignation is on the table"),
    ],
)
def test_resignations_the_rules_refuse(state: MatchState, action: Action, message: str) -> None:
    with pytest.raises(IllegalAction, match=message):
        apply(state, action, NO_DICE)


def test_while_a_resignation_is_pending_only_the_answer_may_come() -> None:
    offered, _ = apply(rolling(), ResignGame(ZERO, 2), NO_DICE)
    refused: list[tuple[Action, str]] = [
        (ResignGame(ONE, 1), "A resignation is already on the table"),
        (AcceptResign(ZERO), "Wait for the answer to your resignation"),
        (Roll(ZERO), "Wait for the answer to your resignation"),
        (Double(ZERO), "Wait for the answer to your resignation"),
        (Take(ONE), "There is no double to answer"),
    ]
    for action, message in refused:
        with pytest.raises(IllegalAction, match=message):
            apply(offered, action, NO_DICE)


# -- forfeiting the match (the product texts' "resign", rules.md 8) -----------------------------


@pytest.mark.parametrize(
    "state",
    [
        new_match(RuleSet(length=7)),
        rolling(),
        rolling(phase=Phase.DOUBLED),
        rolling(phase=Phase.RESIGN_OFFERED, resign_stakes=1, resigner=ONE),
    ],
    ids=["opening", "roll", "doubled", "resign_offered"],
)
@pytest.mark.parametrize("quitter", [ZERO, ONE])
def test_either_player_may_forfeit_at_any_time(state: MatchState, quitter: Player) -> None:
    state = replace(state, score=(3, 2))
    state, events = apply(state, ForfeitMatch(quitter), NO_DICE)
    winner = quitter.opponent
    score = (7, 2) if winner is ZERO else (3, 7)
    assert events == (MatchForfeited(quitter), MatchWon(winner, score))
    assert (state.phase, state.winner, state.score, state.turn) == (
        Phase.MATCH_OVER,
        winner,
        score,
        None,
    )


def test_a_forfeit_keeps_a_score_already_past_the_length() -> None:
    _, events = apply(rolling(score=(9, 2)), ForfeitMatch(ONE), NO_DICE)
    assert events[-1] == MatchWon(ZERO, (9, 2))


def test_nothing_can_be_done_once_the_match_is_over() -> None:
    over, _ = apply(rolling(), ForfeitMatch(ONE), NO_DICE)
    assert allowed_actions(over, ZERO) == allowed_actions(over, ONE) == frozenset()
    for action in (
        ForfeitMatch(ZERO),
        Roll(ZERO),
        OpeningRoll(ONE),
        SetAutoplay(ZERO, True),
        ResignGame(ONE, 1),
        Double(ZERO),
    ):
        with pytest.raises(IllegalAction, match="The match is over"):
            apply(over, action, NO_DICE)
