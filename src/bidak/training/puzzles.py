"""Puzzles: which banked decisions become puzzles for everybody, how an answer is judged, and
how one answer moves the solver's and the puzzle's Glicko-2 ratings. Pure: standard library only.

A puzzle is a card (:mod:`bidak.training`) whose right answer is clearly the right one: the
engine's best is at least :data:`PUZZLE_GAP` better than the second best choice. An answer is
right when it gives up at most :data:`PUZZLE_RIGHT` (the best, or a play equal to it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from bidak.training import cube_loss
from bidak.training.glicko import Rating, rate

PUZZLE_GAP: Final = 0.08
"""The best choice must beat the second best by at least this (EMG, normalised to the cube): the
second best is itself a blunder (the bank's band), so the puzzle has one clear answer."""
PUZZLE_RIGHT: Final = 0.02
"""An answer that gives up at most this is right (equal plays, rounding of the ranking)."""
PUZZLE_START: Final = Rating(1500.0, 350.0, 0.06)
"""A new puzzle's rating, and a solver's first."""


def gap(kind: str, analysis: Mapping[str, Any]) -> float:
    """How much the best choice of a card beats the second best: for a checker card, the
    second's loss in the ranking (0 when the roll has one play); for a cube card, what the other
    answer of the two gives up.

    >>> gap("checker", {"ranking": [{"loss": 0.0}, {"loss": 0.12}, {"loss": 0.3}]})
    0.12
    >>> round(gap("cube", {"decider": "taker", "no_double": 0.4, "double_take": 1.2,
    ...                    "double_pass": 1.0}), 3)
    0.2
    """
    if kind == "checker":
        losses = sorted(float(c["loss"]) for c in analysis["ranking"])
        return losses[1] - losses[0] if len(losses) > 1 else 0.0
    decider = str(analysis["decider"])
    choices = ("take", "drop") if decider == "taker" else ("double", "no_double")
    equities = (analysis["no_double"], analysis["double_take"], analysis["double_pass"])
    return max(cube_loss(decider, choice, *equities) for choice in choices)


def is_puzzle(kind: str, analysis: Mapping[str, Any]) -> bool:
    """Whether a banked card is clear enough to be a puzzle (:data:`PUZZLE_GAP`)."""
    return gap(kind, analysis) >= PUZZLE_GAP


def is_right(loss: float) -> bool:
    """Whether an answer that gave up ``loss`` solves the puzzle."""
    return loss <= PUZZLE_RIGHT


def nearest(candidates: list[tuple[int, float]], rating: float) -> int | None:
    """Of (puzzle id, puzzle rating) pairs, the puzzle nearest ``rating`` (the lower id on a tie),
    or ``None`` when there is none.

    >>> nearest([(1, 1200.0), (2, 1560.0), (3, 1440.0)], 1500.0)
    2
    """
    if not candidates:
        return None
    return min(candidates, key=lambda c: (abs(c[1] - rating), c[0]))[0]


def settle(solver: Rating, puzzle: Rating, right: bool) -> tuple[Rating, Rating]:
    """Both ratings after one answer, each a rating period of one game against the other's
    rating before it: the solver wins when right, the puzzle when not."""
    score = 1.0 if right else 0.0
    return rate(solver, [(puzzle, score)]), rate(puzzle, [(solver, 1.0 - score)])
