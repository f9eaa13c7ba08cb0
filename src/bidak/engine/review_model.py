"""The values a review is made of: decisions, verdicts, per-player totals (plain data).

What a decision's loss is, which decisions count and PR are defined in
:mod:`bidak.engine.judging`; the verdict bands are here. Both are written into every review's
JSON (``thresholds``) so a reader knows what the figures meant.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from bidak.engine.judging import (
    CLOSE_CUBE,
    CUBE_KINDS,
    DEFINITION,
    PR_SCALE,
    SCREEN_CUBE,
    Kind,
    Tally,
)
from bidak.match import Player

JSON = dict[str, Any]

DOUBTFUL: Final = 0.02
ERROR: Final = 0.04
BLUNDER: Final = 0.08
LUCK_LEVEL: Final = "1ply"

THRESHOLDS: Final[JSON] = {
    "doubtful": DOUBTFUL,
    "error": ERROR,
    "blunder": BLUNDER,
    "close_cube": CLOSE_CUBE,
    "screen_cube": SCREEN_CUBE,
    "pr_scale": PR_SCALE,
    "luck_level": LUCK_LEVEL,
    "definition": DEFINITION,
}


class Verdict(StrEnum):
    """How bad a decision was, by the equity it gave up (each band excludes the worse ones)."""

    OK = "ok"
    DOUBTFUL = "doubtful"
    ERROR = "error"
    BLUNDER = "blunder"

    @classmethod
    def of(cls, loss: float) -> Verdict:
        """The verdict of a decision that gave up ``loss``.

        >>> [Verdict.of(loss).value for loss in (0.019, 0.02, 0.05, 0.08)]
        ['ok', 'doubtful', 'error', 'blunder']
        """
        if loss >= BLUNDER:
            return cls.BLUNDER
        if loss >= ERROR:
            return cls.ERROR
        if loss >= DOUBTFUL:
            return cls.DOUBTFUL
        return cls.OK


class CubeChoice(StrEnum):
    """A cube decision: the doubler's (double or not) or the taker's (take or drop)."""

    DOUBLE = "double"
    NO_DOUBLE = "no_double"
    TAKE = "take"
    DROP = "drop"


@dataclass(frozen=True, slots=True)
class Where:
    """Where a decision was made: game, turn (the plays of the game counted from 1), who
    decided, and the state as IDs. The position is seen by the player on roll (the doubler,
    for a take or a drop); ``gnubg_id`` and ``xgid`` paste into ``bidak hint``."""

    game: int
    turn: int
    player: Player
    position_id: str
    gnubg_id: str
    xgid: str
    cube: int

    def to_json(self) -> JSON:
        return {
            "game": self.game,
            "turn": self.turn,
            "player": int(self.player),
            "position_id": self.position_id,
            "gnubg_id": self.gnubg_id,
            "xgid": self.xgid,
            "cube": self.cube,
        }


@dataclass(frozen=True, slots=True)
class CheckerDecision:
    """A roll and its play. Forced plays (one legal play, dances included) are listed but not
    counted. Equities are the mover's, normalised to the cube; ``luck`` is the roll's."""

    where: Where
    dice: tuple[int, int]
    played: str
    best: str
    equity_played: float
    equity_best: float
    loss: float
    choices: int
    luck: float
    opening: bool = False

    kind = "checker"

    judging_kind = Kind.PLAY

    @property
    def forced(self) -> bool:
        return self.choices <= 1

    @property
    def counted(self) -> bool:
        return not self.forced

    @property
    def verdict(self) -> Verdict:
        return Verdict.of(self.loss)

    def to_json(self) -> JSON:
        return {
            "kind": self.kind,
            **self.where.to_json(),
            "dice": list(self.dice),
            "played": self.played,
            "best": self.best,
            "equity_played": self.equity_played,
            "equity_best": self.equity_best,
            "loss": self.loss,
            "verdict": self.verdict.value,
            "counted": self.counted,
            "forced": self.forced,
            "choices": self.choices,
            "luck": self.luck,
            "opening": self.opening,
        }


@dataclass(frozen=True, slots=True)
class CubeDecision:
    """A cube decision. ND/DT/DP are the doubler's equities at the cube before the double; the
    taker's loss is measured in the same units."""

    where: Where
    choice: CubeChoice
    best: CubeChoice
    no_double: float
    double_take: float
    double_pass: float
    loss: float
    counted: bool
    ply: str

    kind = "cube"

    @property
    def judging_kind(self) -> Kind:
        return Kind.TAKE if self.choice in (CubeChoice.TAKE, CubeChoice.DROP) else Kind.DOUBLE

    @property
    def verdict(self) -> Verdict:
        return Verdict.of(self.loss)

    def to_json(self) -> JSON:
        return {
            "kind": self.kind,
            **self.where.to_json(),
            "played": self.choice.value,
            "best": self.best.value,
            "no_double": self.no_double,
            "double_take": self.double_take,
            "double_pass": self.double_pass,
            "loss": self.loss,
            "verdict": self.verdict.value,
            "counted": self.counted,
            "level": self.ply,
        }


Decision = CheckerDecision | CubeDecision


@dataclass(frozen=True, slots=True)
class GameReview:
    """One game's decisions in the order they were made; ``winner`` is ``None`` if unfinished."""

    number: int
    score: tuple[int, int]
    crawford: bool
    decisions: tuple[Decision, ...]
    winner: Player | None = None
    points: int = 0

    def to_json(self) -> JSON:
        return {
            "game": self.number,
            "score": list(self.score),
            "crawford": self.crawford,
            "winner": None if self.winner is None else int(self.winner),
            "points": self.points,
            "decisions": [decision.to_json() for decision in self.decisions],
        }


@dataclass(frozen=True, slots=True)
class PlayerTotals:
    """One player's figures. ``tally``: the counted decisions and their losses, whose PR is
    :mod:`bidak.engine.judging`'s; ``luck``: the sum of the player's roll luck."""

    player: Player
    name: str
    tally: Tally
    doubtful: int
    errors: int
    blunders: int
    luck: float
    rolls: int

    @property
    def checker_decisions(self) -> int:
        return self.tally.decisions((Kind.PLAY,))

    @property
    def cube_decisions(self) -> int:
        return self.tally.decisions(CUBE_KINDS)

    @property
    def decisions(self) -> int:
        return self.tally.decisions()

    @property
    def pr(self) -> float:
        return self.tally.pr()

    @property
    def checker_pr(self) -> float:
        return self.tally.pr((Kind.PLAY,))

    @property
    def cube_pr(self) -> float:
        return self.tally.pr(CUBE_KINDS)

    def to_json(self) -> JSON:
        return {
            "player": int(self.player),
            "name": self.name,
            "pr": self.pr,
            "checker_pr": self.checker_pr,
            "cube_pr": self.cube_pr,
            "decisions": self.decisions,
            "checker_decisions": self.checker_decisions,
            "cube_decisions": self.cube_decisions,
            "equity_lost": self.tally.equity_lost(),
            "doubtful": self.doubtful,
            "errors": self.errors,
            "blunders": self.blunders,
            "luck": self.luck,
            "rolls": self.rolls,
        }


def totals_for(player: Player, name: str, games: Sequence[GameReview]) -> PlayerTotals:
    """Add up ``player``'s decisions over ``games``."""
    mine = [d for game in games for d in game.decisions if d.where.player is player]
    tally = Tally()
    for decision in mine:
        tally.add(decision.judging_kind, decision.loss, decision.counted)
    verdicts = [d.verdict for d in mine if d.counted]
    checker = [d for d in mine if isinstance(d, CheckerDecision)]
    return PlayerTotals(
        player=player,
        name=name,
        tally=tally,
        doubtful=verdicts.count(Verdict.DOUBTFUL),
        errors=verdicts.count(Verdict.ERROR),
        blunders=verdicts.count(Verdict.BLUNDER),
        luck=sum(d.luck for d in checker),
        rolls=len(checker),
    )


@dataclass(frozen=True, slots=True)
class MatchReview:
    """A reviewed match (or game): every game, and both players' totals (ZERO's first)."""

    length: int
    players: tuple[str, str]
    ply: str
    games: tuple[GameReview, ...]
    totals: tuple[PlayerTotals, PlayerTotals]

    @property
    def decisions(self) -> tuple[Decision, ...]:
        return tuple(decision for game in self.games for decision in game.decisions)

    def to_json(self) -> JSON:
        return {
            "length": self.length,
            "players": list(self.players),
            "level": self.ply,
            "thresholds": dict(THRESHOLDS),
            "games": [game.to_json() for game in self.games],
            "totals": [totals.to_json() for totals in self.totals],
        }
