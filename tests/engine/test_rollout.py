"""bgsage's rollouts through :class:`bidak.engine.sage.Rollout` (judging plays, issue 39)."""

from __future__ import annotations

import pytest

from bidak.engine.sage import Context, EngineError, Rollout
from bidak.rules import Position


def after_last_checker_home() -> Position:
    """The mover just played, leaving one checker on their one-point; the opponent, with ten
    checkers on their own one-point and five borne off, cannot finish before the mover does."""
    points = [0] * 24
    points[0] = 1
    points[23] = -10
    return Position(tuple(points))


def test_a_certain_single_win_is_worth_one_point() -> None:
    equity, error = Rollout("truncated1", threads=1).equity_after(after_last_checker_home())
    assert equity == pytest.approx(1.0, abs=1e-6)
    assert error == pytest.approx(0.0, abs=1e-6)


def test_a_rollout_is_seeded_and_sees_the_match_score() -> None:
    rollout = Rollout("truncated1", threads=1)
    start = Position.initial()
    money = rollout.equity_after(start)
    assert rollout.equity_after(start) == money  # the same dice: the same figure
    assert money[1] > 0.0  # a contact position: the games differ
    # Two points from the match, the opponent needing one (the Crawford game): a win takes
    # the match and a gammon is worth no more, so the figure is another one.
    crawford = Context(away=(2, 1), crawford=True)
    assert rollout.equity_after(start, crawford) != money


def test_an_unknown_rollout_is_refused() -> None:
    with pytest.raises(EngineError, match="truncated1, truncated2, full"):
        Rollout("truncated9")
