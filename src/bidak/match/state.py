"""The state of a match: an immutable value that only :func:`bidak.match.apply_event` changes."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from bidak.match.player import Player
from bidak.match.ruleset import RuleSet
from bidak.rules import Alternatives, Play, Position, plays_and_alternatives


class Phase(Enum):
    """What the match is waiting for. Values are stable: they are stored."""

    OPENING = "opening"
    """Waiting for the opening roll of a game (rules.md 2)."""
    ROLL = "roll"
    """The player on roll may double (if allowed) or roll."""
    MOVE = "move"
    """The dice are rolled; the player on roll must play them."""
    DOUBLED = "doubled"
    """The opponent of the player on roll must take or drop."""
    RESIGN_OFFERED = "resign_offered"
    """The opponent of the resigner must accept or reject."""
    BETWEEN_GAMES = "between_games"
    """No game in progress. Transient: only seen in the middle of a transition (after a game ends,
    before its ``GameStarted`` or ``MatchWon``) or in a log cut short there."""
    MATCH_OVER = "match_over"


@dataclass(frozen=True, slots=True)
class MatchState:
    """Everything needed to continue a match.

    ``position`` is seen by ``turn``, the player on roll; while nobody is on roll (the opening, the
    end of the match) it is seen by ``Player.ZERO``. ``cube`` keeps the old value while a double is
    pending (as GNU Backgammon's Match ID does). Per-player tuples are indexed by :class:`Player`.

    ``strikes`` counts each player's timeouts over the whole match, at most one per turn;
    ``struck`` says who has already had one in the current turn (rules.md 9), so that a turn
    whose roll decision and play both time out is one strike.
    """

    rules: RuleSet
    position: Position
    score: tuple[int, int] = (0, 0)
    game: int = 0
    crawford: bool = False
    post_crawford: bool = False
    phase: Phase = Phase.BETWEEN_GAMES
    turn: Player | None = None
    dice: tuple[int, int] | None = None
    cube: int = 1
    cube_owner: Player | None = None
    resign_stakes: int = 0
    resigner: Player | None = None
    strikes: tuple[int, int] = (0, 0)
    struck: tuple[bool, bool] = (False, False)
    autoplay: tuple[bool, bool] = (False, False)
    winner: Player | None = None
    version: int = 0
    _plays: tuple[Play, ...] | None = field(default=None, init=False, repr=False, compare=False)
    _alternatives: Alternatives | None = field(default=None, init=False, repr=False, compare=False)

    def roll_plays(self) -> tuple[Play, ...]:
        """The legal plays of ``dice`` from ``position`` (``()`` without dice).

        Computed once per state and kept: a state never changes, and a server asks the same
        question three times per turn (the automatic-step check, the table it sends, the check
        of the play that comes back).
        """
        if self._plays is None:
            self._search()
        assert self._plays is not None
        return self._plays

    def roll_alternatives(self) -> Alternatives:
        """Every set of steps that reaches each legal play's result
        (:func:`bidak.rules.step_alternatives`), from the same search as :meth:`roll_plays`."""
        if self._alternatives is None:
            self._search()
        assert self._alternatives is not None
        return self._alternatives

    def _search(self) -> None:
        plays: tuple[Play, ...] = ()
        alternatives: Alternatives = {}
        if self.dice is not None:
            found, alternatives = plays_and_alternatives(self.position, self.dice)
            plays = tuple(found)
        object.__setattr__(self, "_plays", plays)
        object.__setattr__(self, "_alternatives", alternatives)

    @property
    def viewer(self) -> Player:
        """The player whose view ``position`` is in."""
        return Player.ZERO if self.turn is None else self.turn

    def position_for(self, player: Player) -> Position:
        """The position seen by ``player``."""
        return self.position if player is self.viewer else self.position.flipped()

    def pips_for(self, player: Player) -> int:
        """``player``'s pip count (rules.md 10)."""
        pips = self.position.pips
        return pips.mover if player is self.viewer else pips.opponent

    def away(self, player: Player) -> int:
        """Points ``player`` still needs to win the match (0 once reached)."""
        return max(0, self.rules.length - self.score[player])

    @property
    def pending_cube(self) -> int:
        """The cube value a pending double offers (``cube`` itself otherwise)."""
        return 2 * self.cube if self.phase is Phase.DOUBLED else self.cube
