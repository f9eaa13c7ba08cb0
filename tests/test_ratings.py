"""FIBS ratings: the worked examples of the formula, and what must hold for any ratings."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bidak.ratings import START_RATING, boost, fibs_change, win_probability


def test_equal_experienced_players_in_a_one_point_match_move_two_points() -> None:
    assert fibs_change(1500, 1500, 1, 400, 400) == pytest.approx((2.0, -2.0))


def test_equal_new_players_move_five_times_as_much() -> None:
    assert fibs_change(START_RATING, START_RATING, 1, 0, 0) == pytest.approx((10.0, -10.0))


def test_a_200_point_favourite_winning_a_5_point_match_gains_about_3_35() -> None:
    gain, loss = fibs_change(1700, 1500, 5, 1000, 1000)
    assert gain == pytest.approx(3.35, abs=0.005)
    assert loss == pytest.approx(-gain)


def test_the_underdog_winning_gains_the_rest_of_the_stake() -> None:
    # 4 * sqrt(5) is at stake between experienced players: the two outcomes share it.
    favourite, _ = fibs_change(1700, 1500, 5, 1000, 1000)
    underdog, _ = fibs_change(1500, 1700, 5, 1000, 1000)
    assert favourite + underdog == pytest.approx(4 * math.sqrt(5))


def test_each_player_is_boosted_by_their_own_experience() -> None:
    # A newcomer beating a veteran: the newcomer gains 5x, the veteran loses 1x.
    gain, loss = fibs_change(1500, 1500, 3, 0, 2000)
    assert gain == pytest.approx(-5 * loss)
    assert [boost(e) for e in (0, 100, 250, 399, 400, 5000)] == pytest.approx(
        [5, 4, 2.5, 1.01, 1, 1]
    )


def test_nonsense_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 1 point"):
        fibs_change(1500, 1500, 0, 0, 0)
    with pytest.raises(ValueError, match="never negative"):
        fibs_change(1500, 1500, 1, -1, 0)


ratings = st.floats(min_value=500, max_value=2500, allow_nan=False)
lengths = st.sampled_from([1, 3, 5, 7, 9, 11, 25])
veteran = st.integers(min_value=400, max_value=100_000)


@given(ratings, ratings, lengths, veteran, veteran)
def test_between_experienced_players_the_winner_gains_what_the_loser_loses(
    winner: float, loser: float, length: int, we: int, le: int
) -> None:
    gain, loss = fibs_change(winner, loser, length, we, le)
    assert gain > 0 > loss
    assert gain == pytest.approx(-loss)
    assert gain < 4 * math.sqrt(length)


@given(ratings, st.floats(min_value=1, max_value=1000), lengths, veteran)
def test_a_favourite_gains_less_for_a_win_than_an_underdog_does(
    low: float, gap: float, length: int, experience: int
) -> None:
    high = low + gap
    favourite_win, _ = fibs_change(high, low, length, experience, experience)
    underdog_win, _ = fibs_change(low, high, length, experience, experience)
    assert favourite_win < underdog_win


@given(ratings, ratings, lengths)
def test_the_two_win_probabilities_sum_to_one(a: float, b: float, length: int) -> None:
    assert win_probability(a, b, length) + win_probability(b, a, length) == pytest.approx(1)
