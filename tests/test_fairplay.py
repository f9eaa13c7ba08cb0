"""The fair-play signal (bidak.fairplay): what flags a window of matches and what never does."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bidak.fairplay import (
    HUMAN,
    LEAVER_LIMIT,
    MIN_DECISIONS,
    STEADY_BONUS,
    THRESHOLD,
    WINDOW,
    MatchFigures,
    figures_of,
    judge,
    leaves_often,
    steadiness,
    think_cv,
)


def match(
    pr: float, decisions: int = 200, spread: float = 2.0, seconds: float = 0.0, cv: float = 1.0
) -> MatchFigures:
    """A match of ``decisions`` at ``pr`` whose losses have SD ``spread`` x the mean (people's and
    bots' errors are that skewed: docs/fair-play.md), and as many think times of mean
    ``seconds`` and coefficient of variation ``cv`` (none if ``seconds`` is 0)."""
    mean = pr / 500
    sd = spread * mean
    times = decisions if seconds else 0
    return MatchFigures(
        decisions=decisions,
        loss=mean * decisions,
        squares=decisions * (sd * sd + mean * mean),
        times=times,
        seconds=seconds * times,
        seconds_squared=times * ((cv * seconds) ** 2 + seconds * seconds),
    )


def test_a_bot_strength_window_is_flagged_and_a_strong_persons_is_not() -> None:
    bot = judge([match(0.6)] * WINDOW)
    assert bot.enough and bot.flagged
    assert bot.pr == pytest.approx(0.6) and bot.decisions == 2000
    assert bot.strength > 0 and bot.bound < THRESHOLD
    strong_person = judge([match(2.0)] * WINDOW)
    assert strong_person.enough and not strong_person.flagged
    assert strong_person.strength < 0
    typical = judge([match(4.36)] * WINDOW)
    assert not typical.flagged
    assert 0.5 < typical.percentile < 0.7  # above the fitted median, 3.77


def test_too_few_decisions_say_nothing_however_strong() -> None:
    few = judge([match(0.0, decisions=MIN_DECISIONS - 1)])
    assert few.pr == 0.0 and not few.enough and not few.flagged
    assert few.strength == -math.inf
    assert judge([]).decisions == 0 and not judge([]).flagged
    assert judge([match(0.1, decisions=MIN_DECISIONS)]).flagged


def test_fewer_decisions_need_a_lower_pr() -> None:
    # The same PR over fewer decisions has a wider error, so its bound lies higher.
    many = judge([match(1.4, decisions=300)] * WINDOW)
    few = judge([match(1.4, decisions=60)] * 5)
    assert few.standard_error > many.standard_error
    assert many.flagged and not few.flagged


def test_steady_move_times_raise_the_threshold_but_never_flag_alone() -> None:
    # A bound just above the threshold: flagged with a steady delay, not with people's times.
    near = 1.55
    varied = judge([match(near, seconds=8.0, cv=1.0)] * WINDOW)
    steady = judge([match(near, seconds=8.0, cv=0.1)] * WINDOW)
    assert varied.steadiness == 0.0 and not varied.flagged
    assert steady.steadiness == 1.0
    assert steady.threshold == pytest.approx(THRESHOLD + STEADY_BONUS)
    assert steady.flagged
    # A steady but ordinary player: nothing.
    assert not judge([match(4.0, seconds=5.0, cv=0.05)] * WINDOW).flagged


def test_only_the_most_recent_window_counts() -> None:
    recent = [match(5.0)] * WINDOW
    assert not judge([*recent, *([match(0.1)] * 30)]).flagged
    assert judge([*([match(0.1)] * WINDOW), *recent]).flagged


def test_steadiness_and_the_coefficient_of_variation() -> None:
    assert steadiness(None) == 0.0
    assert steadiness(0.1) == 1.0 and steadiness(0.9) == 0.0
    assert steadiness(0.35) == pytest.approx(0.5)
    assert think_cv([figures_of([0.0] * 10, [5.0] * 10)]) is None  # too few times
    exact = figures_of([0.01] * 40, [4.0, 6.0] * 20)
    assert think_cv([exact]) == pytest.approx(0.2)


def test_figures_of_a_match() -> None:
    figures = figures_of([0.0, 0.02, 0.04], [3.0, 5.0])
    assert figures.decisions == 3 and figures.pr == pytest.approx(10.0)
    assert figures.squares == pytest.approx(0.002)
    assert (figures.times, figures.seconds, figures.seconds_squared) == (2, 8.0, 34.0)
    with pytest.raises(ValueError):
        MatchFigures(decisions=-1, loss=0, squares=0)


def test_the_human_baseline_matches_the_reference() -> None:
    assert HUMAN.percentile(1.52) == pytest.approx(0.025, abs=1e-3)
    assert HUMAN.percentile(9.36) == pytest.approx(0.975, abs=1e-3)
    assert HUMAN.percentile(0.0) == 0.0
    # The fitted log-normal's mean lies near the reference's 4.36.
    assert math.exp(HUMAN.mu + HUMAN.sigma**2 / 2) == pytest.approx(HUMAN.mean, rel=0.05)


def test_leaving_often_is_three_of_the_last_ten() -> None:
    assert not leaves_often([True] * (LEAVER_LIMIT - 1) + [False] * 8)
    assert leaves_often([True] * LEAVER_LIMIT)
    assert not leaves_often([False] * 10 + [True] * 5)  # older than the last ten


@given(
    st.lists(st.tuples(st.integers(0, 400), st.floats(0, 40), st.floats(0.5, 4)), max_size=15),
    st.floats(1.0, 10.0),
)
def test_losing_more_never_turns_a_window_into_a_flag(
    rows: list[tuple[int, float, float]], worse_by: float
) -> None:
    window = [match(pr, decisions, spread) for decisions, pr, spread in rows]
    signal = judge(window)
    assert signal.bound >= signal.pr >= 0
    if signal.flagged:
        assert signal.enough and signal.pr < THRESHOLD
    worse = judge(
        [MatchFigures(m.decisions, m.loss * worse_by, m.squares * worse_by**2) for m in window]
    )
    assert worse.bound >= signal.bound - 1e-9
    if not signal.flagged:
        assert not worse.flagged
