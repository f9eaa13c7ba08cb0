"""What a player (or the server on their behalf) asks the match to do.

Each action names the acting ``player``; ``name`` is the word :func:`bidak.match.allowed_actions`
uses for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Protocol

from bidak.match.player import Player
from bidak.rules import Step


class Stepped(Protocol):
    """Anything that carries the steps of a whole play: a :class:`~bidak.rules.Play`, or a
    recorded play such as a ``.mat`` file's move."""

    @property
    def steps(self) -> tuple[Step, ...]: ...


@dataclass(frozen=True, slots=True)
class OpeningRoll:
    """Throw the opening roll (either player may; rules.md 2)."""

    name: ClassVar[str] = "opening_roll"
    player: Player


@dataclass(frozen=True, slots=True)
class Roll:
    name: ClassVar[str] = "roll"
    player: Player


@dataclass(frozen=True, slots=True)
class Move:
    """Play the roll: ``steps`` are ``(start, end)`` in the mover's numbering (25 bar, 0 off).

    The steps may come in any order; hits are found by the rules.
    """

    name: ClassVar[str] = "move"
    player: Player
    steps: tuple[tuple[int, int], ...]

    @classmethod
    def of(cls, player: Player, play: Stepped) -> Move:
        """``player`` playing ``play``: its steps as ``(start, end)``, the hits left to the rules.

        This is the one conversion of a play to a move; everyone who chose a
        :class:`~bidak.rules.Play` (a bot, a player at the terminal, a file) makes the move here.

        >>> from bidak.rules import Position, legal_plays
        >>> play = next(p for p in legal_plays(Position.initial(), (3, 1)) if str(p) == "8/5 6/5")
        >>> Move.of(Player.ZERO, play)
        Move(player=<Player.ZERO: 0>, steps=((8, 5), (6, 5)))
        """
        return cls(player, tuple((step.start, step.end) for step in play.steps))


@dataclass(frozen=True, slots=True)
class Double:
    name: ClassVar[str] = "double"
    player: Player


@dataclass(frozen=True, slots=True)
class Take:
    name: ClassVar[str] = "take"
    player: Player


@dataclass(frozen=True, slots=True)
class Drop:
    name: ClassVar[str] = "drop"
    player: Player


@dataclass(frozen=True, slots=True)
class ResignGame:
    """Offer to lose the game for ``stakes`` x cube: 1 single, 2 gammon, 3 backgammon."""

    name: ClassVar[str] = "resign"
    player: Player
    stakes: int


@dataclass(frozen=True, slots=True)
class AcceptResign:
    name: ClassVar[str] = "accept_resign"
    player: Player


@dataclass(frozen=True, slots=True)
class RejectResign:
    name: ClassVar[str] = "reject_resign"
    player: Player


@dataclass(frozen=True, slots=True)
class ForfeitMatch:
    """Give up the whole match (the product texts' "resign", rules.md 8)."""

    name: ClassVar[str] = "forfeit"
    player: Player


@dataclass(frozen=True, slots=True)
class SetAutoplay:
    """Hand the seat to the bot (``on``) or take back control."""

    name: ClassVar[str] = "set_autoplay"
    player: Player
    on: bool


@dataclass(frozen=True, slots=True)
class Timeout:
    """``player`` ran out of time; ``fallback`` is what the server (or a bot) plays for them.

    The fallback must be an action ``player`` may take now. The room's timeout policy decides what
    else happens (rules.md 9).
    """

    name: ClassVar[str] = "timeout"
    player: Player
    fallback: Action


Action = (
    OpeningRoll
    | Roll
    | Move
    | Double
    | Take
    | Drop
    | ResignGame
    | AcceptResign
    | RejectResign
    | ForfeitMatch
    | SetAutoplay
    | Timeout
)

DECISIONS = (Roll, Move, Double, Take, Drop, AcceptResign, RejectResign)
"""The actions that answer the clock: the ones a :class:`Timeout` may fall back to."""
