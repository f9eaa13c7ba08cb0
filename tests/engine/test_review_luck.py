"""The luck of a roll: the best play's equity against the average roll's (1-ply)."""

from __future__ import annotations

import pytest

from bidak.engine.hints import shared_evaluator
from bidak.engine.luck import roll_luck
from bidak.engine.sage import Context, CubeOwner, from_board
from bidak.rules import Position

MIDDLE = from_board(
    [0, -2, 0, 0, 0, 2, 4, 0, 3, 0, 0, 0, -4, 4, 0, 0, 0, -2, -2, -3, -2, 0, 0, 0, 2, 0]
)
ROLLS = [(high, low) for high in range(1, 7) for low in range(1, high + 1)]


@pytest.mark.parametrize(
    ("position", "context", "cubeless"),
    [
        (MIDDLE, Context(), False),
        (MIDDLE, Context(2, CubeOwner.OPPONENT, (3, 5)), False),
        (MIDDLE, Context(), True),
    ],
)
def test_luck_averages_to_zero_over_the_36_rolls(
    position: Position, context: Context, cubeless: bool
) -> None:
    evaluator = shared_evaluator("1ply")
    lucks = {
        roll: roll_luck(evaluator, position, roll, context, cubeless=cubeless) for roll in ROLLS
    }
    weighted = sum(luck.luck * (1 if h == low else 2) for (h, low), luck in lucks.items())
    assert weighted / 36 == pytest.approx(0.0, abs=1e-9)
    assert all(luck.rolls == 21 for luck in lucks.values())


def test_the_opening_roll_is_averaged_over_the_15_non_doubles() -> None:
    evaluator = shared_evaluator("1ply")
    start = Position.initial()
    openings = [(h, low) for h, low in ROLLS if h != low]
    lucks = [roll_luck(evaluator, start, roll, opening=True) for roll in openings]
    assert all(luck.rolls == 15 for luck in lucks)
    assert sum(luck.luck for luck in lucks) == pytest.approx(0.0, abs=1e-9)
    best = max(zip(lucks, openings, strict=True), key=lambda pair: pair[0].luck)[1]
    assert best == (3, 1)


def test_sixes_at_the_start_are_lucky_and_the_order_of_the_dice_does_not_matter() -> None:
    evaluator = shared_evaluator("1ply")
    assert roll_luck(evaluator, Position.initial(), (6, 6)).luck > 0.2
    assert roll_luck(evaluator, MIDDLE, (1, 2)) == roll_luck(evaluator, MIDDLE, (2, 1))


def test_cubeless_luck_is_the_cubeless_equitys() -> None:
    """A duel without a cube measures luck in cubeless points (``bidak.bench.duel_luck``):
    the figures are the evaluation's cubeless equities, not the cubeful ones reviews use."""
    evaluator = shared_evaluator("1ply")
    cubeful = roll_luck(evaluator, MIDDLE, (6, 5))
    cubeless = roll_luck(evaluator, MIDDLE, (6, 5), cubeless=True)
    assert cubeless.actual != pytest.approx(cubeful.actual, abs=1e-3)
    best = max(play.cubeless_equity for play in evaluator.rank(MIDDLE, (6, 5)))
    assert cubeless.actual == pytest.approx(best, abs=0.05)
