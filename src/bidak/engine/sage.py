"""The one adapter between Bidak and the ``bgsage`` engine (Open Sage, MPL-2.0).

bgsage's board is 26 ints from the view of the player on roll: ``b[1..24]`` the mover's points
(mover's checkers positive, opponent's negative), ``b[25]`` the mover's bar and ``b[0]`` the
opponent's bar, both as positive counts. Borne-off checkers are implicit. That is exactly Bidak's
``Position`` laid out in one list, so the conversion is a copy.

Facts this module relies on (measured on the 2-core machine, see the closing notes of issue 3):

- plies follow XG's convention: "1ply" is the raw network;
- an analyzer reads its weight files when created (55-110 ms): create one per ply and reuse it;
- ``checker_play`` ranks every legal play, best first, with cubeful equity in the match context
  (normalised: +1/-1 = winning/losing the cube's worth of points);
- ``cube_action`` re-reads the weights on each call (about 45 ms); the 1-ply cube decision is
  therefore computed from the 1-ply evaluation with ``bgbot_cpp.cube_decision_1ply`` (16 µs);
- ``possible_moves`` also offers the one-die bear-off of the last checker when a two-dice play
  exists; Bidak's rules refuse it, so every ranked play is checked against ``legal_plays``.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

import bgbot_cpp
import bgsage

from bidak.errors import BidakError, InvalidPosition
from bidak.rules import Position, Sides, legal_plays

PLIES = ("1ply", "2ply", "3ply")
ROLLOUTS = ("truncated1", "truncated2", "full")


class EngineError(BidakError):
    """The engine was asked something it cannot answer (unknown ply, impossible input)."""


def to_board(position: Position) -> list[int]:
    """bgsage's board for a Bidak position (both from the mover's view)."""
    return [position.bar.opponent, *position.points, position.bar.mover]


def from_board(board: list[int] | tuple[int, ...]) -> Position:
    """The Bidak position of a bgsage board; refuses an impossible board (InvalidPosition)."""
    if len(board) != 26:
        raise InvalidPosition(f"a bgsage board has 26 slots, not {len(board)}")
    return Position(tuple(int(n) for n in board[1:25]), Sides(int(board[25]), int(board[0])))


def possible_boards(position: Position, dice: tuple[int, int]) -> list[list[int]]:
    """bgsage's raw result boards for a roll (for timing comparisons)."""
    return bgsage.possible_moves(to_board(position), dice[0], dice[1])  # type: ignore[no-any-return]


def possible_results(position: Position, dice: tuple[int, int]) -> list[Position]:
    """bgsage's legal results of a roll (mover's view), as Bidak positions.

    bgsage gives the unchanged board (or, in older builds, nothing) when no move is possible;
    Bidak's rules return the unchanged position as the one "play" then.
    """
    boards = bgsage.possible_moves(to_board(position), dice[0], dice[1])
    if not boards:
        return [position]
    return [from_board(board) for board in boards]


class CubeOwner(Enum):
    """Who holds the cube, seen from the player on roll."""

    CENTRED = "centered"
    MOVER = "player"
    OPPONENT = "opponent"


@dataclass(frozen=True, slots=True)
class Context:
    """What the engine needs besides the board, from the view of the player on roll.

    ``away`` is (points the mover needs, points the opponent needs); (0, 0) is a money game,
    which Bidak uses without Jacoby or beavers when an ID carries no match.
    """

    cube: int = 1
    owner: CubeOwner = CubeOwner.CENTRED
    away: tuple[int, int] = (0, 0)
    crawford: bool = False

    def flipped(self) -> Context:
        owner = {
            CubeOwner.MOVER: CubeOwner.OPPONENT,
            CubeOwner.OPPONENT: CubeOwner.MOVER,
        }.get(self.owner, CubeOwner.CENTRED)
        return Context(self.cube, owner, (self.away[1], self.away[0]), self.crawford)

    def _kwargs(self) -> dict[str, Any]:
        return {
            "away1": self.away[0],
            "away2": self.away[1],
            "is_crawford": self.crawford,
            "jacoby": False,
        }


def won_equity(stakes: int, context: Context) -> float:
    """What winning ``stakes`` x cube points now is worth to the mover, in the engine's units.

    The units are those of every equity here: +1 is winning the cube's worth. For money that is
    ``stakes``; in a match it is the match-winning chances after the win on the engine's linear
    scale. Used to weigh a resignation offer against playing on.
    """
    away, other = context.away
    if away == 0 and other == 0:
        return float(stakes)
    left = away - stakes * context.cube
    # bgbot_cpp's table flag means "post-Crawford": true once the opponent already needs 1.
    mwc = 1.0 if left <= 0 else float(bgbot_cpp.get_met(left, other, other == 1))
    return float(bgbot_cpp.mwc2eq(mwc, away, other, context.cube, context.crawford))


def match_winning_chance(equity: float, context: Context) -> float:
    """The mover's match-winning chance for an ``equity`` in the engine's units at the score
    and cube of ``context`` (the inverse of the scale :func:`won_equity` uses); for money, the
    equity itself. The scale is linear, so a difference of equities maps to a difference of
    chances by one factor of the score and the cube."""
    away, other = context.away
    if away == 0 and other == 0:
        return equity
    return float(bgbot_cpp.eq2mwc(equity, away, other, context.cube, context.crawford))


@dataclass(frozen=True, slots=True)
class Probabilities:
    """Cubeless chances for one side; gammon figures include backgammons."""

    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float

    @classmethod
    def of(cls, probs: Any) -> Probabilities:
        return cls(
            float(probs.win),
            float(probs.gammon_win),
            float(probs.backgammon_win),
            float(probs.gammon_loss),
            float(probs.backgammon_loss),
        )

    @classmethod
    def from_list(cls, values: list[float]) -> Probabilities:
        return cls(*(float(v) for v in values))


@dataclass(frozen=True, slots=True)
class RankedPlay:
    """One candidate play: its result (mover's view), equity and chances after it."""

    result: Position
    equity: float
    cubeless_equity: float
    probabilities: Probabilities
    loss: float  # equity given up against the best candidate, >= 0
    ply: str


@dataclass(frozen=True, slots=True)
class CubeVerdict:
    """The cube decision of the player on roll, in the doubler's normalised equity."""

    no_double: float
    double_take: float
    double_pass: float
    should_double: bool
    should_take: bool
    probabilities: Probabilities
    ply: str

    @property
    def double_equity(self) -> float:
        """What doubling is worth: the opponent picks the better of take and pass for them."""
        return min(self.double_take, self.double_pass)

    @property
    def best_equity(self) -> float:
        return max(self.no_double, self.double_equity)

    @property
    def action(self) -> str:
        if not self.should_double:
            return "No double"
        return "Double, take" if self.should_take else "Double, pass"


_OWNERS = {
    CubeOwner.CENTRED: bgbot_cpp.CubeOwner.CENTERED,
    CubeOwner.MOVER: bgbot_cpp.CubeOwner.PLAYER,
    CubeOwner.OPPONENT: bgbot_cpp.CubeOwner.OPPONENT,
}


class Rollout:
    """bgsage's rollouts of a position right after a play, for judging plays, not for playing:
    seconds of a core a position (``docs/analysis.md``).

    ``level`` is one of bgsage's named truncated rollouts (:data:`ROLLOUTS`: ``truncated1``, 72
    games 5 rolls deep with 1-ply plays; ``truncated2``, 360 games 7 rolls deep at 2-ply), or
    ``full`` with ``trials`` games played to the end with 1-ply plays. Cubeful, variance
    reduced, seeded: the same call gives the same figure, and the plays after each of a roll's
    candidates see the same dice, so their difference is sharper than each figure.
    """

    def __init__(self, level: str, *, trials: int = 1296, threads: int = 0, seed: int = 42) -> None:
        if level not in ROLLOUTS:
            raise EngineError(f"unknown rollout {level!r}; use one of {', '.join(ROLLOUTS)}")
        if level == "full":
            self._analyzer = bgsage.create_analyzer(
                "rollout",
                n_trials=trials,
                truncation_depth=0,
                decision_ply=1,
                parallel_threads=threads,
                seed=seed,
            )
        else:
            self._analyzer = bgsage.create_analyzer(level, parallel_threads=threads, seed=seed)

    def equity_after(self, result: Position, context: Context = Context()) -> tuple[float, float]:
        """The mover's cubeful equity after a play (mover's view) and its standard error."""
        analysis = self._analyzer.post_move_analytics(
            to_board(result), context.owner.value, context.cube, **context._kwargs()
        )
        error = analysis.cubeful_se
        return float(analysis.cubeful_equity), 0.0 if error is None else float(error)


class Evaluator:
    """One bgsage analyzer at a fixed ply; thread-safe for concurrent calls."""

    def __init__(self, ply: str = "1ply") -> None:
        if ply not in PLIES:
            raise EngineError(f"unknown engine depth {ply!r}; use one of {', '.join(PLIES)}")
        self.ply = ply
        self._analyzer = bgsage.create_analyzer(ply)
        self._one_ply = self._analyzer if ply == "1ply" else None
        self._lock = threading.Lock()

    def _first_ply(self) -> Any:
        if self._one_ply is None:
            with self._lock:
                if self._one_ply is None:
                    self._one_ply = bgsage.create_analyzer("1ply")
        return self._one_ply

    def rank(
        self, position: Position, dice: tuple[int, int], context: Context = Context()
    ) -> list[RankedPlay]:
        """Every legal play of the roll, best first, with equities in this context."""
        result = self._analyzer.checker_play(
            to_board(position),
            dice[0],
            dice[1],
            context.cube,
            context.owner.value,
            beaver=False,
            **context._kwargs(),
        )
        legal = {play.result for play in legal_plays(position, dice)}
        ranked: list[RankedPlay] = []
        for move in result.moves:
            after = from_board(move.board)
            if after not in legal:
                continue  # bgsage's one-die bear-off of the last checker (rules.md 3)
            ranked.append(
                RankedPlay(
                    after,
                    float(move.equity),
                    float(move.cubeless_equity),
                    Probabilities.of(move.probs),
                    0.0,
                    str(move.eval_level),
                )
            )
        if not ranked:
            return [RankedPlay(position, 0.0, 0.0, Probabilities(0, 0, 0, 0, 0), 0.0, "none")]
        best = ranked[0].equity
        return [replace(r, loss=best - r.equity) for r in ranked]

    def equity_after(self, result: Position, context: Context = Context()) -> float:
        """Cubeful equity of a position right after the mover played (mover's view, 1-ply)."""
        analysis = self._first_ply().post_move_analytics(
            to_board(result), context.owner.value, context.cube, **context._kwargs()
        )
        return float(analysis.cubeful_equity)

    def roll_equities(
        self, position: Position, context: Context = Context(), *, cubeless: bool = False
    ) -> dict[tuple[int, int], float]:
        """For each of the 21 rolls (high die first), the mover's 1-ply cubeful equity after
        the roll's best play, scoring every result with the post-move evaluation (for luck);
        ``cubeless``: the cubeless equity instead (points of a game without a cube).

        The post-move evaluation picks its network from the result alone, so its figures can
        differ by a few hundredths from ``rank`` at 1-ply; use one or the other, not both.
        """
        analyzer = self._first_ply()
        board = to_board(position)
        owner, kwargs = context.owner.value, context._kwargs()
        equities: dict[tuple[int, int], float] = {}
        for high in range(1, 7):
            for low in range(1, high + 1):
                analyses = (
                    analyzer.post_move_analytics(after, owner, context.cube, **kwargs)
                    for after in bgsage.possible_moves(board, high, low) or [board]
                )
                equities[(high, low)] = max(
                    float(a.cubeless_equity if cubeless else a.cubeful_equity) for a in analyses
                )
        return equities

    def cube(self, position: Position, context: Context = Context()) -> CubeVerdict:
        """The cube decision before rolling, for the player on roll.

        At 1-ply it is computed from the network's evaluation directly (microseconds); deeper
        levels use bgsage's cube search, which costs about 45 ms a call.
        """
        board = to_board(position)
        if self.ply == "1ply":
            after = self._analyzer.post_move_analytics(
                bgsage.flip_board(board), **context.flipped()._kwargs()
            )
            probs = bgsage.invert_probs(after.probs.to_list())
            mine, theirs = bgbot_cpp.pip_counts(board)
            efficiency = bgbot_cpp.cube_efficiency(probs, bgsage.is_race(board), mine, theirs)
            decision = bgbot_cpp.cube_decision_1ply(
                probs,
                context.cube,
                _OWNERS[context.owner],
                efficiency,
                context.away[0],
                context.away[1],
                context.crawford,
                False,
            )
            return CubeVerdict(
                float(decision.equity_nd),
                float(decision.equity_dt),
                float(decision.equity_dp),
                bool(decision.should_double),
                bool(decision.should_take),
                Probabilities.from_list(list(probs)),
                "1-ply",
            )
        verdict = self._analyzer.cube_action(
            board, context.cube, context.owner.value, beaver=False, **context._kwargs()
        )
        return CubeVerdict(
            float(verdict.equity_nd),
            float(verdict.equity_dt),
            float(verdict.equity_dp),
            bool(verdict.should_double),
            bool(verdict.should_take),
            Probabilities.of(verdict.probs),
            str(verdict.eval_level),
        )


class SageReferee:
    """bgsage at 1-ply choosing plays, for engine-played sample games (cubeless money play)."""

    def __init__(self, ply: str = "1ply") -> None:
        self._analyzer = bgsage.create_analyzer(ply, cubeful=False)

    def best_result(self, position: Position, dice: tuple[int, int]) -> Position:
        """The result of bgsage's best play (mover's view)."""
        ranked = self._analyzer.checker_play(to_board(position), dice[0], dice[1])
        if not ranked.moves:
            return position
        return from_board(ranked.moves[0].board)
