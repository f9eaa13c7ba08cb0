"""The neutral record of a ``.mat`` match: what the text says, independent of any match engine.

Players are gnubg's indices: 0 is the left column of the text (gnubg's player 0), 1 the right.
Steps are ``(start, end, hit)`` from the mover's view with 25 = bar and 0 = off, one per die.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, TypeAlias

from bidak.rules import Step, Variant

_SWITCH: Final = {"on": True, "off": False}


@dataclass(frozen=True, slots=True)
class MatMove:
    """A roll and its play; ``steps`` is empty when the roll cannot be played."""

    player: int
    dice: tuple[int, int]
    steps: tuple[Step, ...] = ()


@dataclass(frozen=True, slots=True)
class MatDouble:
    """A double to ``value`` (the new cube value).

    Right after another double it is a beaver (money play: the taker redoubles at once and keeps
    the cube), and after a beaver a raccoon.
    """

    player: int
    value: int


@dataclass(frozen=True, slots=True)
class MatTake:
    player: int


@dataclass(frozen=True, slots=True)
class MatDrop:
    player: int


@dataclass(frozen=True, slots=True)
class MatWin:
    """The end of a game: ``player`` wins ``points``.

    It follows the last play of a game that was borne off, a :class:`MatDrop`, or nothing in
    particular: then the loser resigned, at ``points / cube`` (1 single, 2 gammon, 3 backgammon).
    """

    player: int
    points: int


MatAction: TypeAlias = MatMove | MatDouble | MatTake | MatDrop | MatWin


@dataclass(frozen=True, slots=True)
class MatGame:
    """One game: its number (1, 2, ...), the score before it (player 0, player 1), its actions.

    A finished game ends with a :class:`MatWin`; ``winner`` and ``points`` are read from it, so
    they can never disagree with the actions. Only the last game of a record may be unfinished.
    """

    number: int
    score_before: tuple[int, int]
    actions: tuple[MatAction, ...] = ()

    @property
    def result(self) -> MatWin | None:
        last = self.actions[-1] if self.actions else None
        return last if isinstance(last, MatWin) else None

    @property
    def winner(self) -> int | None:
        result = self.result
        return None if result is None else result.player

    @property
    def points(self) -> int:
        result = self.result
        return 0 if result is None else result.points

    @property
    def score_after(self) -> tuple[int, int]:
        """The score after the game (the score before it if the game is unfinished)."""
        score = list(self.score_before)
        result = self.result
        if result is not None:
            score[result.player] += result.points
        return score[0], score[1]


@dataclass(frozen=True, slots=True)
class MatRecord:
    """A whole ``.mat`` file.

    - ``length``: match length, 0 for a money session.
    - ``players``: the names of player 0 (left column) and player 1 (right column).
    - ``metadata``: the header's ``; [Key "Value"]`` lines in order (``Site``, ``EventDate``,
      ``Crawford``, ``Jacoby``, ...), except ``Variation``, which is ``variant``.
    - ``games``: numbered 1, 2, ...

    The text has no Crawford field. Like gnubg, Bidak assumes the Crawford rule in matches (unless
    the header says ``[Crawford "Off"]``) and infers the Crawford game: the first game that starts
    with exactly one player at ``length - 1`` (:attr:`crawford_game`).
    """

    length: int
    players: tuple[str, str]
    metadata: dict[str, str] = field(default_factory=dict)
    variant: Variant = Variant.STANDARD
    games: tuple[MatGame, ...] = ()

    @property
    def crawford_rule(self) -> bool:
        """Whether the Crawford rule applies: matches only, unless the header turns it off."""
        return self.length > 0 and self._flag("Crawford") is not False

    @property
    def jacoby(self) -> bool | None:
        """The header's Jacoby setting for money play; ``None`` when it does not say."""
        return self._flag("Jacoby") if self.length == 0 else False

    @property
    def beavers(self) -> bool:
        """Beavers are allowed in money play unless the header says ``[Beaver "Off"]``."""
        return self.length == 0 and self._flag("Beaver") is not False

    @property
    def crawford_game(self) -> int | None:
        """The number of the Crawford game, inferred from the scores; ``None`` if there is none."""
        if not self.crawford_rule:
            return None
        for game in self.games:
            if is_crawford_score(self.length, game.score_before):
                return game.number
        return None

    def _flag(self, key: str) -> bool | None:
        for name, value in self.metadata.items():
            if name.lower() == key.lower():
                return _SWITCH.get(value.strip().lower())
        return None


def is_crawford_score(length: int, score: tuple[int, int]) -> bool:
    """Exactly one player is one point from winning (the first such game is the Crawford game)."""
    return length > 0 and (score[0] == length - 1) != (score[1] == length - 1)
