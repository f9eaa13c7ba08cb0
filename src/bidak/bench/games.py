"""Seeded sample positions for benchmarks and differential tests.

Positions come from complete games whose rolls come from ``random.Random(seed)``. A chooser picks
each play; by default a random legal play, which visits bar fights, primes and bear-offs alike.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from bidak.rules import Play, Position, legal_plays, outcome

Chooser = Callable[[Position, tuple[int, int], list[Play]], Play]


def random_chooser(rng: random.Random) -> Chooser:
    def choose(position: Position, dice: tuple[int, int], plays: list[Play]) -> Play:
        return rng.choice(plays)

    return choose


def game_turns(
    seed: int, chooser: Chooser | None = None
) -> Iterator[tuple[Position, tuple[int, int]]]:
    """Yield (position, dice) for every turn of one complete game."""
    rng = random.Random(seed)
    choose = chooser or random_chooser(random.Random(seed ^ 0x5EED))
    position = Position.initial()
    while True:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        yield position, dice
        play = choose(position, dice, legal_plays(position, dice))
        if outcome(play.result) is not None:
            return
        position = play.result.flipped()


def sample_positions(
    count: int, seed: int = 2026, chooser: Chooser | None = None
) -> list[tuple[Position, tuple[int, int]]]:
    """At least ``count`` (position, dice) pairs from consecutive seeded games."""
    found: list[tuple[Position, tuple[int, int]]] = []
    game = 0
    while len(found) < count:
        found.extend(game_turns(seed * 1_000_003 + game, chooser))
        game += 1
    return found
