"""Hypothesis strategies and random-game helpers for rules tests."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from bidak.rules import Position, Sides, legal_plays, outcome

dice = st.tuples(st.integers(1, 6), st.integers(1, 6))


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Any valid position: up to 15 checkers a side on the board or the bar, no shared point.

    Bear-off positions are drawn often, since most subtle rules live there.
    """
    home_only = draw(st.booleans())
    board = [0] * 24
    bars = [0, 0]
    for side, sign in ((0, 1), (1, -1)):
        count = draw(st.integers(1, 15))
        for _ in range(count):
            if draw(st.integers(0, 19)) == 0:
                bars[side] += 1
                continue
            lo, hi = (0, 5) if home_only and side == 0 else (0, 23)
            for _attempt in range(30):
                index = draw(st.integers(lo, hi))
                if board[index] * sign >= 0:
                    board[index] += sign
                    break
    return Position(tuple(board), Sides(bars[0], bars[1]))


def random_game_positions(seed: int) -> list[tuple[Position, tuple[int, int]]]:
    """(position, dice) for every turn of one game of random legal plays."""
    rng = random.Random(seed)
    position = Position.initial()
    seen: list[tuple[Position, tuple[int, int]]] = []
    while True:
        roll = (rng.randint(1, 6), rng.randint(1, 6))
        seen.append((position, roll))
        position = rng.choice(legal_plays(position, roll)).result
        if outcome(position) is not None:
            return seen
        position = position.flipped()
