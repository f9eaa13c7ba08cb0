"""The pure rules of training (bidak.training): classification, card selection, grading, streak."""

from __future__ import annotations

from datetime import date

from bidak.training import (
    BANK_LOSS,
    Board,
    Grade,
    Phase,
    Theme,
    bankable,
    checker_theme,
    cube_loss,
    cube_theme,
    grade,
    loss_of_play,
    phase_of,
    streak,
)


def board(mine: dict[int, int], theirs: dict[int, int], bar: tuple[int, int] = (0, 0)) -> Board:
    """Counts per point, each side from its own view (as Position.from_counts)."""
    points = [0] * 24
    for point, n in mine.items():
        points[point - 1] += n
    for point, n in theirs.items():
        points[24 - point] -= n
    return Board(tuple(points), bar)


START = {24: 2, 13: 5, 8: 3, 6: 5}


def test_the_phase_follows_the_position_and_the_turn() -> None:
    assert phase_of(board(START, START), 2) is Phase.OPENING
    assert phase_of(board(START, START), 12) is Phase.MIDDLE
    race = board({8: 5, 6: 5, 4: 5}, {8: 5, 6: 5, 4: 5})
    assert phase_of(race, 30) is Phase.RACE
    assert phase_of(board({6: 5, 3: 5, 1: 3}, START), 30) is Phase.BEAR_OFF
    # on the bar, a player is never bearing off
    assert phase_of(board({6: 5, 3: 5}, START, bar=(1, 0)), 30) is Phase.MIDDLE


def test_each_checker_theme_has_a_position_that_shows_it() -> None:
    assert checker_theme(board({6: 5, 3: 10}, START), 30, False) is Theme.BEAR_OFF
    assert checker_theme(board({10: 3, 6: 5, 3: 7}, {24: 2, 13: 13}), 30, False) is Theme.BEAR_IN
    assert checker_theme(board({16: 2, 8: 13}, {8: 15}), 30, False) is Theme.RUNNING
    assert checker_theme(board(START, START), 12, True) is Theme.HITTING
    primed = board({24: 2, 9: 2, 8: 3, 7: 2, 6: 4, 13: 2}, START)
    assert checker_theme(primed, 12, False) is Theme.PRIMING
    # an anchor on the opponent's 5 point (the decider's 20) and behind in the race
    holding = board({20: 2, 13: 5, 8: 3, 6: 5}, {6: 5, 4: 4, 3: 3, 8: 3})
    assert checker_theme(holding, 12, False) is Theme.HOLDING
    assert checker_theme(board(START, START), 1, False) is Theme.OPENING
    assert checker_theme(board(START, START), 12, False) is Theme.MIDDLE


def test_cube_cards_train_the_double_or_the_right_answer() -> None:
    assert cube_theme({"played": "double", "best": "no_double"}) is Theme.DOUBLE
    assert cube_theme({"played": "no_double", "best": "double"}) is Theme.DOUBLE
    assert cube_theme({"played": "drop", "best": "take"}) is Theme.TAKE
    assert cube_theme({"played": "take", "best": "drop"}) is Theme.PASS


def decision(**fields: object) -> dict[str, object]:
    return {"kind": "checker", "game": 1, "turn": 5, "player": 0, "counted": True, **fields}


def test_the_bank_takes_the_people_s_counted_mistakes_once() -> None:
    found = bankable(
        [
            decision(turn=3, loss=BANK_LOSS),  # at the threshold: a card
            decision(turn=4, loss=BANK_LOSS - 0.001),  # just under: none
            decision(turn=5, loss=0.5, counted=False),  # forced: none
            decision(turn=6, loss=0.3, player=1),  # the bot's: none
            decision(turn=3, loss=0.2),  # the same place again: once
            decision(turn=7, loss=0.1, kind="cube"),
        ],
        seats=[0],
    )
    assert [(d["turn"], d["kind"], d["loss"]) for d in found] == [
        (3, "checker", BANK_LOSS),
        (7, "cube", 0.1),
    ]


def test_answers_are_graded_by_the_equity_they_give_up() -> None:
    assert grade(0.0) is Grade.GOOD
    assert grade(0.0005) is Grade.GOOD
    assert grade(0.015) is Grade.HARD
    assert grade(0.08) is Grade.AGAIN
    ranking = [{"result": "a", "loss": 0.0}, {"result": "b", "loss": 0.09}]
    assert loss_of_play(ranking, "b") == 0.09
    assert loss_of_play(ranking, "zz") is None


def test_cube_losses_follow_the_three_equities() -> None:
    # a clear double and take: ND 0.4 < DT 0.7 < DP 1.0
    assert cube_loss("doubler", "double", 0.4, 0.7, 1.0) == 0.0
    assert abs(cube_loss("doubler", "no_double", 0.4, 0.7, 1.0) - 0.3) < 1e-9
    assert cube_loss("taker", "take", 0.4, 0.7, 1.0) == 0.0
    assert abs(cube_loss("taker", "drop", 0.4, 0.7, 1.0) - 0.3) < 1e-9
    # too good to double: not doubling is right
    assert cube_loss("doubler", "no_double", 1.2, 1.5, 1.0) == 0.0


def test_the_streak_counts_days_in_a_row() -> None:
    today = date(2026, 12, 2)
    days = [date(2026, 12, 2), date(2026, 12, 1), date(2026, 11, 30), date(2026, 11, 28)]
    assert streak(days, today) == 3
    assert streak([], today) == 0
