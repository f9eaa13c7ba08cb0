"""The end of a game and how much it is worth (rules.md 6)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum

from bidak.rules.position import CHECKERS, Position


class Side(Enum):
    """A side relative to a position: the player on roll or the other one."""

    MOVER = "mover"
    OPPONENT = "opponent"


class WinKind(IntEnum):
    """How a game is won; the value is the multiple of the cube the winner scores."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


@dataclass(frozen=True, slots=True)
class Outcome:
    winner: Side
    kind: WinKind


def outcome(position: Position) -> Outcome | None:
    """The result if a side has borne off all 15 checkers, else ``None``.

    >>> outcome(Position.from_counts({}, {1: 15}))
    Outcome(winner=<Side.MOVER: 'mover'>, kind=<WinKind.GAMMON: 2>)
    >>> outcome(Position.initial()) is None
    True
    """
    off = position.off
    if off.mover == CHECKERS:
        return Outcome(Side.MOVER, _kind(position))
    if off.opponent == CHECKERS:
        return Outcome(Side.OPPONENT, _kind(position.flipped()))
    return None


def _kind(won: Position) -> WinKind:
    """Classify a game the mover of ``won`` has won."""
    if won.off.opponent > 0:
        return WinKind.SINGLE
    # A backgammon: the loser still has a checker on the bar or in the winner's home board
    # (the winner's points 1-6), rules.md 6.
    if won.bar.opponent or any(n < 0 for n in won.points[:6]):
        return WinKind.BACKGAMMON
    return WinKind.GAMMON
