"""Where dice come from. The match core never creates randomness: a source is passed in.

The server uses a secure source with a commit-reveal proof; tests and the CLI use the two sources
here.

>>> first, second = SeededDice(7), SeededDice(7)
>>> [first.die() for _ in range(5)] == [second.die() for _ in range(5)]
True
>>> ScriptedDice([6, 1]).die()
6
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Protocol

from bidak.errors import InvalidDice


class DiceSource(Protocol):
    """Anything that throws one die at a time."""

    def die(self) -> int:
        """One die, 1..6."""
        ...


class SeededDice:
    """Reproducible dice from ``random.Random(seed)`` (tests, the CLI, replays of test matches)."""

    def __init__(self, seed: int | str) -> None:
        self._random = random.Random(seed)

    def die(self) -> int:
        return self._random.randint(1, 6)


class ScriptedDice:
    """Exactly the given dice, in order; running out is an error (tests)."""

    def __init__(self, values: Iterable[int]) -> None:
        self._values = list(values)
        for value in self._values:
            _check_die(value)
        self._next = 0

    @property
    def remaining(self) -> int:
        return len(self._values) - self._next

    def die(self) -> int:
        if self._next >= len(self._values):
            raise InvalidDice("the scripted dice ran out")
        value = self._values[self._next]
        self._next += 1
        return value


def draw(source: DiceSource) -> int:
    """One die from ``source``, checked to be 1..6."""
    return _check_die(source.die())


def _check_die(value: object) -> int:
    if type(value) is not int or not 1 <= value <= 6:
        raise InvalidDice(f"a die shows 1 to 6, not {value!r}")
    return value
