"""The backgammon position, always seen from the player on roll (rules.md sections 1 and 6).

Points are numbered 1..24 from the mover's view (rules.md 1): the mover's home board is 1-6 and the
mover travels from 24 down to 1. ``points[i]`` holds point ``i + 1``: a positive count is the
mover's checkers, a negative count the opponent's. The opponent's point ``p`` is the mover's point
``25 - p``. Checkers that are neither on the board nor on the bar have been borne off.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from enum import Enum
from operator import neg
from typing import Final, Generic, NamedTuple, NewType, TypeVar

from bidak.errors import InvalidId, InvalidPosition

T = TypeVar("T")

Point = NewType("Point", int)
"""A point number 1..24 from the mover's view; ``BAR`` and ``OFF`` are the two ends of a step."""

BAR: Final = Point(25)
OFF: Final = Point(0)
CHECKERS: Final = 15


class Sides(NamedTuple, Generic[T]):
    """One value for each side of a position: the mover's and the opponent's."""

    mover: T
    opponent: T

    def swapped(self) -> Sides[T]:
        return Sides(self.opponent, self.mover)


class Variant(Enum):
    """Starting set-ups (rules.md 1). The value is stable: it is stored and sent over the wire."""

    STANDARD = "standard"
    NACKGAMMON = "nackgammon"


_STARTS: Final[dict[Variant, dict[int, int]]] = {
    Variant.STANDARD: {24: 2, 13: 5, 8: 3, 6: 5},
    Variant.NACKGAMMON: {24: 2, 23: 2, 13: 4, 8: 3, 6: 4},
}


_NO_BAR: Final[Sides[int]] = Sides(0, 0)


@dataclass(frozen=True, slots=True)
class Position:
    """An immutable position from the view of the player on roll.

    >>> start = Position.initial()
    >>> start.position_id
    '4HPwATDgc/ABMA'
    >>> start.pips
    Sides(mover=167, opponent=167)
    >>> start.flipped() == start
    True
    """

    points: tuple[int, ...]
    bar: Sides[int] = _NO_BAR

    def __post_init__(self) -> None:
        points, bar = self.points, self.bar
        if not isinstance(points, tuple) or len(points) != 24:
            raise InvalidPosition("a position has exactly 24 points")
        if not isinstance(bar, Sides):
            object.__setattr__(self, "bar", Sides(*bar))
            bar = self.bar
        if any(type(n) is not int for n in points) or any(type(n) is not int for n in bar):
            raise InvalidPosition("checker counts must be whole numbers")
        if bar.mover < 0 or bar.opponent < 0:
            raise InvalidPosition("a bar cannot hold a negative number of checkers")
        mine = sum(n for n in points if n > 0) + bar.mover
        theirs = -sum(n for n in points if n < 0) + bar.opponent
        if mine > CHECKERS:
            raise InvalidPosition(f"the player on roll has {mine} checkers; a side has 15")
        if theirs > CHECKERS:
            raise InvalidPosition(f"the opponent has {theirs} checkers; a side has 15")
        if mine == 0 and theirs == 0:
            raise InvalidPosition("both sides have borne off all their checkers")

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def initial(cls, variant: Variant = Variant.STANDARD) -> Position:
        """The starting position of ``variant`` (rules.md 1)."""
        start = _STARTS[variant]
        return cls.from_counts(start, start)

    @classmethod
    def from_counts(
        cls,
        mover: dict[int, int],
        opponent: dict[int, int],
        bar: tuple[int, int] = (0, 0),
    ) -> Position:
        """Build a position from ``{point: count}`` per side, each side counting from its own view.

        >>> Position.from_counts({6: 1}, {1: 1}).points[:6]
        (0, 0, 0, 0, 0, 1)
        """
        board = [0] * 24
        for point, count in mover.items():
            _check_point(point)
            if count < 0:
                raise InvalidPosition(f"negative count {count} on point {point}")
            board[point - 1] += count
        for point, count in opponent.items():
            _check_point(point)
            if count < 0:
                raise InvalidPosition(f"negative count {count} on point {point}")
            index = 24 - point
            if board[index] > 0 and count:
                raise InvalidPosition(f"both sides have checkers on the mover's point {25 - point}")
            board[index] -= count
        return cls(tuple(board), Sides(*bar))

    @classmethod
    def _unchecked(cls, points: tuple[int, ...], bar_mover: int, bar_opponent: int) -> Position:
        """Build a position known to be valid (produced by the rules themselves)."""
        position = _new_object(cls)
        _set_points(position, points)
        _set_bar(position, _BARS[bar_mover][bar_opponent])
        return position

    # -- views ----------------------------------------------------------------------------------

    def flipped(self) -> Position:
        """The same position seen by the other player."""
        mover, opponent = self.bar
        return Position._unchecked(tuple(map(neg, reversed(self.points))), opponent, mover)

    def count(self, point: int) -> int:
        """Checkers on ``point`` (mover's numbering): positive mover's, negative opponent's."""
        _check_point(point)
        return self.points[point - 1]

    @property
    def off(self) -> Sides[int]:
        """Checkers borne off by each side."""
        mover, opponent = self.bar
        mine = CHECKERS - mover
        theirs = CHECKERS - opponent
        for n in self.points:
            if n > 0:
                mine -= n
            elif n:
                theirs += n
        return _new_tuple(Sides, (mine, theirs))

    @property
    def pips(self) -> Sides[int]:
        """Pip counts (rules.md 10): distance to bear off; a checker on the bar counts 25."""
        mover, opponent = self.bar
        mine = 25 * mover
        theirs = 25 * opponent
        for point, n in enumerate(self.points, 1):
            if n > 0:
                mine += n * point
            elif n:
                theirs -= n * (25 - point)
        return _new_tuple(Sides, (mine, theirs))

    def is_race(self) -> bool:
        """True when no contact is left: every mover checker is past every opponent checker."""
        if self.bar.mover or self.bar.opponent:
            return False
        highest_mine = max((i for i, n in enumerate(self.points) if n > 0), default=-1)
        lowest_theirs = min((i for i, n in enumerate(self.points) if n < 0), default=24)
        return highest_mine < lowest_theirs

    # -- GNU Backgammon Position ID (formats.md 1) -----------------------------------------------

    @property
    def position_id(self) -> str:
        """GNU Backgammon's 14-character Position ID (side not on roll written first)."""
        # The key is 80 bits, from the lowest up: for the opponent's points 1..24 (their
        # numbering) and bar, then the mover's, each count as that many 1 bits and one 0 bit.
        points = self.points
        key = 0
        bit = 0
        for n in reversed(points):
            if n < 0:
                key |= ((1 << -n) - 1) << bit
                bit -= n
            bit += 1
        key |= ((1 << self.bar.opponent) - 1) << bit
        bit += self.bar.opponent + 1
        for n in points:
            if n > 0:
                key |= ((1 << n) - 1) << bit
                bit += n
            bit += 1
        key |= ((1 << self.bar.mover) - 1) << bit
        return binascii.b2a_base64(key.to_bytes(10, "little"), newline=False)[:14].decode("ascii")

    @classmethod
    def from_position_id(cls, position_id: str) -> Position:
        """Decode a GNU Backgammon Position ID.

        >>> Position.from_position_id("4HPwATDgc/ABMA") == Position.initial()
        True
        """
        text = position_id.strip()
        if len(text) != 14:
            raise InvalidId(f"a Position ID has 14 characters, not {len(text)}: {position_id!r}")
        try:
            key = base64.b64decode(text + "==", validate=True)
        except (binascii.Error, ValueError):
            raise InvalidId(f"not a Position ID (bad base64): {position_id!r}") from None
        sides: list[list[int]] = [[0] * 25, [0] * 25]
        side = slot = 0
        for k in range(80):
            if side == 2:
                break
            if key[k // 8] >> (k % 8) & 1:
                sides[side][slot] += 1
                if sum(sides[side]) > CHECKERS:
                    raise InvalidId(f"more than 15 checkers for one side in {position_id!r}")
            else:
                slot += 1
                if slot == 25:
                    side, slot = side + 1, 0
        theirs, mine = sides
        board = [0] * 24
        for p in range(1, 25):
            if mine[p - 1] and theirs[24 - p]:
                raise InvalidId(f"both sides occupy the mover's point {p} in {position_id!r}")
            board[p - 1] = mine[p - 1] - theirs[24 - p]
        try:
            return cls(tuple(board), Sides(mine[24], theirs[24]))
        except InvalidPosition as error:
            raise InvalidId(f"{error} in {position_id!r}") from None

    # -- text -----------------------------------------------------------------------------------

    def __str__(self) -> str:
        from bidak.rules.diagram import render

        return render(self)


# Fast construction of positions the rules produce themselves (already valid): the slot
# descriptors write the frozen fields directly, which keeps legal_plays cheap. ``_new_tuple``
# makes a ``Sides`` without the Python-level ``__new__`` of a named tuple.
_new_object = object.__new__
_new_tuple = tuple.__new__
_set_points = Position.__dict__["points"].__set__
_set_bar = Position.__dict__["bar"].__set__
_BARS: Final = [
    [_new_tuple(Sides, (mover, opponent)) for opponent in range(16)] for mover in range(16)
]
"""The bar of every valid position, ``_BARS[mover][opponent]``, shared by the positions."""


def _check_point(point: int) -> None:
    if type(point) is not int or not 1 <= point <= 24:
        raise InvalidPosition(f"point {point!r} is not a point 1..24")
