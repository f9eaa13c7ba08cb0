"""The luck of a roll: how much better (or worse) it was than an average roll.

luck = E(best play of the roll rolled) - the weighted mean of E(best play of each roll)

- E is the roller's 1-ply cubeful equity right after a play, in the engine's normalised units
  (+1 = winning the cube's worth), at the cube, ownership and score of the roll; every legal
  result is scored and the best one kept (:meth:`Evaluator.roll_equities`);
- a normal roll is averaged over the 21 rolls, doubles weighing 1 and the others 2 (out of 36);
- the opening roll can never be a double, so it is averaged over the 15 non-doubles, equally;
- luck is always 1-ply, whatever depth the decisions are reviewed at (21 evaluations of every
  legal play per roll at 2-ply would cost seconds per roll).

Over all rolls the weighted luck sums to zero by construction.

>>> from bidak.engine.sage import Evaluator
>>> from bidak.rules import Position
>>> luck = roll_luck(Evaluator("1ply"), Position.initial(), (6, 6))
>>> luck.luck > 0.2, luck.rolls
(True, 21)
"""

from __future__ import annotations

from dataclasses import dataclass

from bidak.engine.sage import Context, Evaluator
from bidak.rules import Position


@dataclass(frozen=True, slots=True)
class Luck:
    """The luck of one roll, from the roller's view; ``rolls`` is 21, or 15 for an opening."""

    luck: float
    actual: float
    average: float
    rolls: int


def roll_luck(
    evaluator: Evaluator,
    position: Position,
    dice: tuple[int, int],
    context: Context | None = None,
    *,
    opening: bool = False,
    cubeless: bool = False,
) -> Luck:
    """The luck of ``dice`` rolled in ``position`` (before the roll, roller's view);
    ``cubeless``: in cubeless equity (a game's points without a cube) rather than cubeful."""
    equities = evaluator.roll_equities(position, context or Context(), cubeless=cubeless)
    if opening:
        weighted = [(equity, 1) for (high, low), equity in equities.items() if high != low]
    else:
        weighted = [(equity, 1 if high == low else 2) for (high, low), equity in equities.items()]
    average = sum(equity * weight for equity, weight in weighted) / sum(w for _, w in weighted)
    actual = equities[(max(dice), min(dice))]
    return Luck(actual - average, actual, average, len(weighted))
