"""How a bot of a given :class:`~bidak.engine.levels.Style` picks among the engine's answers.

Pure functions over the engine's ranking and cube verdict; the randomness is the ``rng`` passed
in. A weak style plays like a weak human rather than a dice-thrower: it only picks plays within its
``cap`` of the best, prefers good plays to bad ones (softmax over equity), likes hitting, dislikes
leaving shots, doubles late and takes too much.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Final

from bidak.engine.levels import Style
from bidak.engine.sage import CubeVerdict, RankedPlay
from bidak.rules import Position

DIRECT: Final = 6
"""A blot within this many pips in front of an opposing checker is exposed to a direct shot."""

NOTHING_AT_STAKE: Final = 0.005
"""Doubling or not that differs by less than this changes (next to) nothing: a dead cube, a game
already decided. No bot doubles then (noise would otherwise drive the cube to 64 in such
positions), and calibration does not count the decision."""


def hits(before: Position, after: Position) -> int:
    """How many opposing checkers the play sent to the bar."""
    return after.bar.opponent - before.bar.opponent


def exposed_blots(after: Position) -> int:
    """The mover's blots an opposing checker (or one entering from the bar) hits with one die.

    Opposing checkers travel up the mover's numbering: one on the mover's point ``q`` (the bar
    counts as 0) hits a blot on ``p`` with a ``p - q`` when ``0 < p - q <= 6``.
    """
    points = after.points
    theirs = [0] * after.bar.opponent + [i + 1 for i, n in enumerate(points) if n < 0]
    count = 0
    for index, n in enumerate(points):
        if n == 1:
            point = index + 1
            if any(0 < point - q <= DIRECT for q in theirs):
                count += 1
    return count


def choose_play(
    before: Position, ranked: Sequence[RankedPlay], style: Style, rng: random.Random
) -> RankedPlay:
    """The candidate a bot of ``style`` plays; ``ranked`` is the engine's list, best first."""
    if style.exact_plays or len(ranked) == 1:
        return ranked[0]
    candidates = [play for play in ranked if play.loss <= style.cap]
    utilities = [
        -play.loss
        + style.hit_bias * hits(before, play.result)
        - style.shot_bias * exposed_blots(play.result)
        + (rng.gauss(0.0, style.noise) if style.noise else 0.0)
        for play in candidates
    ]
    if style.temperature <= 0.0:
        return candidates[max(range(len(candidates)), key=utilities.__getitem__)]
    top = max(utilities)
    weights = [math.exp((u - top) / style.temperature) for u in utilities]
    return rng.choices(candidates, weights)[0]


def wants_double(verdict: CubeVerdict, style: Style, rng: random.Random) -> bool:
    """Whether a bot of ``style`` doubles, given the engine's verdict (the double is legal)."""
    if style.exact_cube:
        return verdict.should_double
    gain = verdict.double_equity - verdict.no_double
    if abs(gain) <= NOTHING_AT_STAKE:
        return False
    return gain - style.double_bias + _cube_noise(style, rng) > 0.0


def wants_take(verdict: CubeVerdict, style: Style, rng: random.Random) -> bool:
    """Whether a bot of ``style`` takes; ``verdict`` is the doubler's (their view and equity)."""
    if style.exact_cube:
        return verdict.should_take
    # The taker's equity is -double_take after a take and -double_pass after a drop.
    margin = verdict.double_pass - verdict.double_take
    return margin + style.take_bias + _cube_noise(style, rng) > 0.0


def _cube_noise(style: Style, rng: random.Random) -> float:
    return rng.gauss(0.0, style.cube_noise) if style.cube_noise else 0.0
