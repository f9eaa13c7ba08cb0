"""Puzzles' pure rules (bidak.training.puzzles) and Glicko-2 (bidak.training.glicko)."""

from __future__ import annotations

import pytest

from bidak.training.glicko import Rating, rate
from bidak.training.puzzles import (
    PUZZLE_GAP,
    PUZZLE_RIGHT,
    gap,
    is_puzzle,
    is_right,
    nearest,
    settle,
)


def test_glickmans_worked_example() -> None:
    """The paper's example: 1500/200/0.06 beats 1400/30, loses to 1550/100 and 1700/300."""
    after = rate(
        Rating(1500, 200, 0.06),
        [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)],
    )
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    after = rate(Rating(1600, 100, 0.06), [])
    assert after.rating == 1600 and after.volatility == 0.06
    assert after.deviation == pytest.approx((100**2 + (0.06 * 173.7178) ** 2) ** 0.5)


def test_a_checker_card_is_a_puzzle_when_the_second_play_is_clearly_worse() -> None:
    clear = {"ranking": [{"loss": 0.0}, {"loss": PUZZLE_GAP}, {"loss": 0.5}]}
    close = {"ranking": [{"loss": 0.0}, {"loss": PUZZLE_GAP - 0.001}, {"loss": 0.5}]}
    assert is_puzzle("checker", clear) and not is_puzzle("checker", close)
    # the ranking's order does not matter; a roll with one play has no puzzle
    assert gap("checker", {"ranking": [{"loss": 0.3}, {"loss": 0.0}]}) == pytest.approx(0.3)
    assert not is_puzzle("checker", {"ranking": [{"loss": 0.0}]})


def test_a_cube_card_is_a_puzzle_when_the_wrong_answer_costs_enough() -> None:
    # a clear pass: taking costs 0.5; a close take/pass is no puzzle
    assert is_puzzle(
        "cube", {"decider": "taker", "no_double": 0.5, "double_take": 1.5, "double_pass": 1.0}
    )
    near = {"decider": "taker", "no_double": 0.5, "double_take": 1.02, "double_pass": 1.0}
    assert not is_puzzle("cube", near)
    # a doubler's: no double 0.2, doubled (take) 0.6: not doubling costs 0.4
    assert gap(
        "cube", {"decider": "doubler", "no_double": 0.2, "double_take": 0.6, "double_pass": 1.0}
    ) == pytest.approx(0.4)


def test_an_answer_is_right_within_the_small_margin() -> None:
    assert is_right(0.0) and is_right(PUZZLE_RIGHT)
    assert not is_right(PUZZLE_RIGHT + 0.001)


def test_the_puzzle_nearest_the_rating_is_chosen() -> None:
    assert nearest([], 1500) is None
    assert nearest([(5, 1400.0), (4, 1600.0)], 1500) == 4  # a tie: the lower id
    assert nearest([(1, 900.0), (2, 1490.0), (3, 2100.0)], 1500) == 2


def test_a_right_answer_moves_the_solver_up_and_the_puzzle_down() -> None:
    solver, puzzle = Rating(1500, 350, 0.06), Rating(1500, 350, 0.06)
    up, easier = settle(solver, puzzle, right=True)
    assert up.rating > 1500 > easier.rating
    assert up.rating - 1500 == pytest.approx(1500 - easier.rating)
    down, harder = settle(solver, puzzle, right=False)
    assert down.rating < 1500 < harder.rating
    # both deviations shrink: each learned from the other
    assert up.deviation < 350 and easier.deviation < 350
    # a sure solver facing a weak, well-known puzzle gains little
    strong = Rating(2000, 60, 0.06)
    gained, _ = settle(strong, Rating(1200, 60, 0.06), right=True)
    assert 0 < gained.rating - 2000 < 2
