"""The two seats of a match."""

from __future__ import annotations

from enum import IntEnum
from typing import TypeVar

T = TypeVar("T")


class Player(IntEnum):
    """An absolute seat; ``ZERO`` is GNU Backgammon's player 0. The value indexes per-seat tuples.

    >>> Player.ZERO.opponent
    <Player.ONE: 1>
    >>> (3, 1)[Player.ONE]
    1
    """

    ZERO = 0
    ONE = 1

    @property
    def opponent(self) -> Player:
        return Player.ONE if self is Player.ZERO else Player.ZERO


def pair_with(pair: tuple[T, T], player: Player, value: T) -> tuple[T, T]:
    """``pair`` with ``player``'s entry replaced by ``value``."""
    return (value, pair[1]) if player is Player.ZERO else (pair[0], value)
