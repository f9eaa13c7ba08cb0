"""What happened in a match. A match *is* its event log: :func:`bidak.match.replay` rebuilds it.

Each event is an immutable fact; ``type`` names it in JSON and never changes. Dice are given as
they fell; steps as ``(start, end, hit)`` in the mover's numbering (25 bar, 0 off).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from bidak.match.player import Player
from bidak.match.ruleset import RuleSet
from bidak.rules import Play


class GameEnd(StrEnum):
    """How a game ended (the ``kind`` of :class:`GameWon`); equal to its stored string."""

    SINGLE = "single"
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"
    DROP = "drop"
    RESIGN = "resign"


@dataclass(frozen=True, slots=True)
class MatchStarted:
    type: ClassVar[str] = "match_started"
    rules: RuleSet


@dataclass(frozen=True, slots=True)
class GameStarted:
    """Game number ``game`` (from 1) starts at ``score``; ``crawford``: it is the Crawford game."""

    type: ClassVar[str] = "game_started"
    game: int
    score: tuple[int, int]
    crawford: bool


@dataclass(frozen=True, slots=True)
class OpeningTie:
    """The opening dice (ZERO's, ONE's) were equal and are thrown again (rules.md 2)."""

    type: ClassVar[str] = "opening_tie"
    dice: tuple[int, int]


@dataclass(frozen=True, slots=True)
class OpeningRolled:
    """The opening dice (ZERO's, ONE's); ``starter`` plays them as the first roll."""

    type: ClassVar[str] = "opening_rolled"
    dice: tuple[int, int]
    starter: Player


@dataclass(frozen=True, slots=True)
class DiceRolled:
    type: ClassVar[str] = "dice_rolled"
    player: Player
    dice: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Played:
    """``player`` played ``dice``; no steps means no move was possible and the turn passes."""

    type: ClassVar[str] = "played"
    player: Player
    dice: tuple[int, int]
    steps: tuple[tuple[int, int, bool], ...]
    notation: str


def played_steps(play: Play) -> tuple[tuple[int, int, bool], ...]:
    """The steps a :class:`Played` event records for ``play``: ``(start, end, hit)`` as plain
    tuples (the one conversion; the move that plays it is :meth:`bidak.match.Move.of`).

    >>> from bidak.rules import Position, legal_plays
    >>> play = next(p for p in legal_plays(Position.initial(), (6, 5)) if str(p) == "24/13")
    >>> played_steps(play)
    ((24, 18, False), (18, 13, False))
    """
    return tuple((step.start, step.end, step.hit) for step in play.steps)


@dataclass(frozen=True, slots=True)
class Doubled:
    """``player`` offers the cube at ``value`` (the new value)."""

    type: ClassVar[str] = "doubled"
    player: Player
    value: int


@dataclass(frozen=True, slots=True)
class Taken:
    """``player`` took; the cube is now ``value`` and theirs."""

    type: ClassVar[str] = "taken"
    player: Player
    value: int


@dataclass(frozen=True, slots=True)
class Dropped:
    type: ClassVar[str] = "dropped"
    player: Player


@dataclass(frozen=True, slots=True)
class ResignOffered:
    type: ClassVar[str] = "resign_offered"
    player: Player
    stakes: int
    """1 single, 2 gammon, 3 backgammon (``"level"`` in JSON)."""


@dataclass(frozen=True, slots=True)
class ResignAccepted:
    type: ClassVar[str] = "resign_accepted"
    player: Player


@dataclass(frozen=True, slots=True)
class ResignRejected:
    type: ClassVar[str] = "resign_rejected"
    player: Player


@dataclass(frozen=True, slots=True)
class GameWon:
    """``winner`` scores ``points``; ``score`` is the match score after the game."""

    type: ClassVar[str] = "game_won"
    winner: Player
    points: int
    kind: GameEnd
    score: tuple[int, int]


@dataclass(frozen=True, slots=True)
class MatchWon:
    type: ClassVar[str] = "match_won"
    winner: Player
    score: tuple[int, int]


@dataclass(frozen=True, slots=True)
class MatchForfeited:
    """``player`` gave up the match (or lost it on time); a ``MatchWon`` follows."""

    type: ClassVar[str] = "match_forfeited"
    player: Player


@dataclass(frozen=True, slots=True)
class TimedOut:
    """``player`` ran out of time; ``strikes`` counts their strikes so far, this one included.

    A turn gives one strike at most: a second timeout in the same turn (the play after a timed-out
    roll decision) leaves ``strikes`` as it was. ``left`` is how many strikes the player has left
    where the room has a limit: 0 means this one lost the match (``None`` in rooms without a limit,
    and in logs written before it was recorded).
    """

    type: ClassVar[str] = "timed_out"
    player: Player
    strikes: int
    left: int | None = None


@dataclass(frozen=True, slots=True)
class AutoplayChanged:
    type: ClassVar[str] = "autoplay_changed"
    player: Player
    on: bool


Event = (
    MatchStarted
    | GameStarted
    | OpeningTie
    | OpeningRolled
    | DiceRolled
    | Played
    | Doubled
    | Taken
    | Dropped
    | ResignOffered
    | ResignAccepted
    | ResignRejected
    | GameWon
    | MatchWon
    | MatchForfeited
    | TimedOut
    | AutoplayChanged
)

EVENT_TYPES: tuple[type[Event], ...] = (
    MatchStarted,
    GameStarted,
    OpeningTie,
    OpeningRolled,
    DiceRolled,
    Played,
    Doubled,
    Taken,
    Dropped,
    ResignOffered,
    ResignAccepted,
    ResignRejected,
    GameWon,
    MatchWon,
    MatchForfeited,
    TimedOut,
    AutoplayChanged,
)
