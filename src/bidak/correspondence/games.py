"""'Your games': every unfinished match of a player, the ones waiting on them first."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeVar


@dataclass(frozen=True, slots=True)
class Game:
    """An unfinished match as its player's list shows it."""

    room: str
    yours: bool
    """The match waits on this player's decision."""
    deadline: float | None
    """When the pending decision runs out, or None when no clock runs."""


G = TypeVar("G", bound=Game)


def waiting_first(games: Iterable[G], now: float) -> list[G]:
    """The games waiting on the player first, then the others; within each, the least time
    left first (a game without a clock after every game with one), then by room code."""

    def key(game: G) -> tuple[bool, bool, float, str]:
        left = 0.0 if game.deadline is None else game.deadline - now
        return (not game.yours, game.deadline is None, left, game.room)

    return sorted(games, key=key)
