"""Judging decisions: what an error is, which decisions count, and PR (the one definition).

Every figure Bidak gives for the quality of play is made here: a review's PR (``bidak analyze``,
the review page), a calibration run's PR per ply (``scripts/calibrate.py``, the figures behind
:mod:`bidak.engine.levels`) and the PR column of ``bidak bench bots``. ``docs/analysis.md``
explains it for readers and compares it with GNU Backgammon's and eXtreme Gammon's figures.

**Units.** Equities are the engine's cubeful equities of the player deciding, normalised to the
cube in play: +1 is winning the cube's worth, -1 losing it. In a match that is the match-winning
chance mapped linearly so that winning and losing the cube's worth are +1 and -1 (gnubg's EMG,
"equivalent to money game"). An error at a 4-cube weighs as much as the same error at 1.

**The error (loss) of a decision**, always >= 0, at the judge's ply (a race's checker play
judged at ``2ply`` is ranked at ``3ply``, :func:`bidak.engine.hints.play_ply`: bgsage's 2-ply
misjudges races with a backgammon at stake by up to 0.74 points, and a review must not call the
saving play a blunder):

- a checker play: the best play's equity minus the played one's;
- the doubler's decision: ``max(ND, D)`` minus ``D`` (doubled) or ``ND`` (held, i.e. rolled),
  where ND is no double and ``D = min(DT, DP)``, double/take and double/pass;
- the taker's answer: ``DT - DP`` for a wrong take, ``DP - DT`` for a wrong drop (in the
  doubler's units: the taker wants them small).

**What counts as a decision for PR:**

- a checker play with more than one legal play; forced plays (a dance included) do not count;
- a double, always; holding (rolling when the rules let the player double) only when doubling
  was a real candidate: the cube is live (:func:`~bidak.engine.hints.cube_available`, gnubg's
  ``GetDPEq``) and ``max(ND, D) - D < CLOSE_CUBE`` (0.16), which is gnubg's
  ``isCloseCubedecision`` and takes in every missed double. At 2-ply and deeper a hold is first
  screened at 1-ply and not looked at when the 1-ply gap is ``SCREEN_CUBE`` (0.30) or more;
- a take or a drop, always;
- nothing else (answers to resignations, automatic rolls).

**PR** is 500 x the equity lost over the counted decisions / the number of counted decisions
(eXtreme Gammon's Performance Rating; gnubg's "error rate per decision" in mEMG is the same
ratio x 1000, so PR = mEMG / 2). PR over no counted decision is 0.0, as gnubg prints it: nothing
was decided, nothing was lost; the count beside it tells the two cases apart. Checker and cube
PR use the same rule over their own decisions.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from bidak.engine.context import context_for
from bidak.engine.hints import cube_available, play_ply
from bidak.engine.sage import Context, CubeVerdict, EngineError, Evaluator, RankedPlay
from bidak.match import Action, Double, MatchState, Move, Phase, Player, Take
from bidak.rules import Play, Position, find_play, legal_plays

PR_SCALE: Final = 500.0
CLOSE_CUBE: Final = 0.16
SCREEN_CUBE: Final = 0.30
DEFINITION: Final = "bidak-judging-2"
"""Names this definition in stored results (calibration runs), so figures made under another
definition are never mixed with these. ``bidak-judging-1`` judged races at the judge's ply."""


class Kind(StrEnum):
    """What was decided: a checker play, the doubler's double or hold, the taker's answer."""

    PLAY = "play"
    DOUBLE = "double"
    TAKE = "take"


KINDS: Final = tuple(Kind)
CUBE_KINDS: Final = (Kind.DOUBLE, Kind.TAKE)


def pr(loss: float, count: float) -> float:
    """PR of ``count`` counted decisions that lost ``loss`` in all (0.0 for none); ``count``
    may be an expected number (``scripts/tune_levels.py``).

    >>> pr(0.2, 40), pr(0.0, 0)
    (2.5, 0.0)
    """
    return PR_SCALE * loss / count if count else 0.0


def double_gap(verdict: CubeVerdict) -> float:
    """How far doubling is from the best cube action (0 when doubling is best)."""
    return verdict.best_equity - verdict.double_equity


def doubler_loss(verdict: CubeVerdict, doubled: bool) -> float:
    """What the doubler gave up by doubling (or by holding)."""
    chosen = verdict.double_equity if doubled else verdict.no_double
    return max(0.0, verdict.best_equity - chosen)


def taker_loss(verdict: CubeVerdict, took: bool) -> float:
    """What the taker gave up by taking (or dropping), ``verdict`` being the doubler's."""
    take, drop = verdict.double_take, verdict.double_pass
    return max(0.0, take - drop) if took else max(0.0, drop - take)


def hold_is_close(verdict: CubeVerdict) -> bool:
    """Whether holding counts as a decision: doubling was within ``CLOSE_CUBE`` of the best."""
    return double_gap(verdict) < CLOSE_CUBE


@dataclass(frozen=True, slots=True)
class PlayJudgement:
    """A roll's play: ``choices`` legal plays; equities are ``None`` for a forced play."""

    played: Play
    best: Play
    choices: int
    equity_played: float | None
    equity_best: float | None

    @property
    def counted(self) -> bool:
        return self.choices > 1

    @property
    def loss(self) -> float:
        if self.equity_played is None or self.equity_best is None:
            return 0.0
        return max(0.0, self.equity_best - self.equity_played)


@dataclass(frozen=True, slots=True)
class CubeJudgement:
    """A counted cube decision: ``kind`` DOUBLE (``chose`` = doubled) or TAKE (= took)."""

    kind: Kind
    chose: bool
    verdict: CubeVerdict

    @property
    def loss(self) -> float:
        if self.kind is Kind.DOUBLE:
            return doubler_loss(self.verdict, self.chose)
        return taker_loss(self.verdict, self.chose)

    @property
    def best(self) -> bool:
        """The right choice: double (DOUBLE) or take (TAKE)."""
        if self.kind is Kind.DOUBLE:
            return self.verdict.double_equity > self.verdict.no_double
        return self.verdict.double_take <= self.verdict.double_pass


class Judge:
    """Judges decisions at the ply of ``engine``; ``quick`` (1-ply) screens holds, ``race``
    ranks the checker plays of races (``engine`` when not given).

    ``memo`` keeps every evaluation (for judging several bots on the same states).
    """

    def __init__(
        self,
        engine: Evaluator,
        quick: Evaluator,
        *,
        race: Evaluator | None = None,
        memo: bool = False,
    ) -> None:
        self.engine = engine
        self.quick = quick
        self.race = race or engine
        self.ply = engine.ply
        self._ranks: dict[tuple[Position, tuple[int, int], Context], list[RankedPlay]] | None
        self._cubes: dict[tuple[Position, Context], CubeVerdict] | None
        self._ranks, self._cubes = ({}, {}) if memo else (None, None)
        self._last_cube: tuple[tuple[Position, Context], CubeVerdict] | None = None

    @classmethod
    def at(cls, ply: str, engines: Callable[[str], Evaluator], *, memo: bool = False) -> Judge:
        """The judge of this definition at ``ply``, its engines from ``engines`` (a ply to an
        evaluator): races' checker plays at :func:`~bidak.engine.hints.play_ply`'s depth."""
        race = play_ply(ply, race=True)
        return cls(engines(ply), engines("1ply"), race=engines(race), memo=memo)

    def play(self, state: MatchState, player: Player, played: Play) -> PlayJudgement:
        """``player``'s play ``played`` of the roll in ``state`` (phase MOVE)."""
        assert state.dice is not None
        legal = legal_plays(state.position, state.dice)
        plays = {candidate.result: candidate for candidate in legal}
        if len(plays) == 1:
            return PlayJudgement(played, played, 1, None, None)
        ranked = self._rank(state.position, state.dice, context_for(state, player))
        found = next((r for r in ranked if r.result == played.result), None)
        if found is None or ranked[0].result not in plays:
            raise EngineError(
                f"the engine did not rank the play {played} ({state.position.position_id})"
            )
        best = plays[ranked[0].result]
        return PlayJudgement(played, best, len(plays), found.equity, ranked[0].equity)

    def double(self, state: MatchState, doubled: bool) -> CubeJudgement | None:
        """The player on roll's double or hold in ``state`` (phase ROLL, doubling allowed).

        ``None`` when holding is no decision: a dead cube, or doubling far from the best.
        """
        assert state.turn is not None
        context = context_for(state, state.turn)
        if doubled:
            return CubeJudgement(Kind.DOUBLE, True, self._cube(state.position, context))
        if not cube_available(context):
            return None
        screened = self.engine is not self.quick and self.ply != "1ply"
        if screened and double_gap(self.quick.cube(state.position, context)) >= SCREEN_CUBE:
            return None
        verdict = self._cube(state.position, context)
        return CubeJudgement(Kind.DOUBLE, False, verdict) if hold_is_close(verdict) else None

    def answer(self, state: MatchState, took: bool) -> CubeJudgement:
        """The answer to a double: ``state`` is the doubler's moment (phase ROLL or DOUBLED)."""
        doubler = state.turn
        assert doubler is not None
        context = context_for(state, doubler)
        return CubeJudgement(Kind.TAKE, took, self._cube(state.position, context))

    def action(self, state: MatchState, player: Player, action: Action) -> Judged | None:
        """``player`` taking ``action`` in ``state``, as a flat record; ``None``: not a decision.

        A forced play is a record with ``counted`` false (it is a decision nobody could get
        wrong); a clear hold or a resignation answer is no record at all.
        """
        away = (state.away(player), state.away(player.opponent))
        where = (state.position.position_id, away, state.cube)
        if state.phase is Phase.MOVE and isinstance(action, Move):
            assert state.dice is not None
            play = find_play(state.position, state.dice, action.steps)
            judged = self.play(state, player, play)
            return Judged(
                Kind.PLAY, judged.loss, judged.counted, *where, state.dice,
                str(judged.played), str(judged.best),
            )  # fmt: skip
        if state.phase is Phase.ROLL:
            cube = self.double(state, isinstance(action, Double))
        elif state.phase is Phase.DOUBLED:
            cube = self.answer(state, isinstance(action, Take))
        else:
            return None
        if cube is None:
            return None
        names = ("double", "no double") if cube.kind is Kind.DOUBLE else ("take", "drop")
        chosen, best = (names[0] if flag else names[1] for flag in (cube.chose, cube.best))
        return Judged(cube.kind, cube.loss, True, *where, None, chosen, best)

    def _rank(
        self, position: Position, dice: tuple[int, int], context: Context
    ) -> list[RankedPlay]:
        engine = self.race if position.is_race() else self.engine
        if self._ranks is None:
            return engine.rank(position, dice, context)
        key = (position, dice, context)
        found = self._ranks.get(key)
        if found is None:
            found = self._ranks[key] = engine.rank(position, dice, context)
        return found

    def _cube(self, position: Position, context: Context) -> CubeVerdict:
        key = (position, context)
        if self._cubes is not None and key in self._cubes:
            return self._cubes[key]
        if self._last_cube is not None and self._last_cube[0] == key:
            return self._last_cube[1]  # the double's verdict, asked again for the answer
        verdict = self.engine.cube(position, context)
        self._last_cube = (key, verdict)
        if self._cubes is not None:
            self._cubes[key] = verdict
        return verdict


@dataclass(frozen=True, slots=True)
class Judged:
    """One decision as a flat record (calibration keeps the worst ones in its JSON)."""

    kind: str
    loss: float  # equity given up against the judge's best, >= 0
    counted: bool  # part of the PR (see the module docstring)
    position_id: str  # as seen by the player on roll (the doubler, for an answer)
    away: tuple[int, int]  # (the decider's, the opponent's)
    cube: int
    dice: tuple[int, int] | None
    chosen: str
    best: str


@dataclass(slots=True)
class Tally:
    """Counted decisions and the equity they lost, per kind, and how many did not count."""

    count: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    loss: dict[str, float] = field(default_factory=lambda: dict.fromkeys(KINDS, 0.0))
    squares: float = 0.0  # sum of squared losses of counted decisions (for the error bar)
    uncounted: int = 0  # forced plays

    def add(self, kind: str, loss: float, counted: bool = True) -> None:
        if not counted:
            self.uncounted += 1
            return
        self.count[kind] += 1
        self.loss[kind] += loss
        self.squares += loss**2

    def add_judged(self, judged: Judged | None) -> None:
        if judged is not None:
            self.add(judged.kind, judged.loss, judged.counted)

    def merge(self, other: Tally) -> None:
        for kind in KINDS:
            self.count[kind] += other.count[kind]
            self.loss[kind] += other.loss[kind]
        self.squares += other.squares
        self.uncounted += other.uncounted

    @classmethod
    def of(cls, tallies: Iterable[Tally]) -> Tally:
        total = cls()
        for tally in tallies:
            total.merge(tally)
        return total

    def decisions(self, kinds: Iterable[str] = KINDS) -> int:
        return sum(self.count[kind] for kind in kinds)

    def equity_lost(self, kinds: Iterable[str] = KINDS) -> float:
        return sum(self.loss[kind] for kind in kinds)

    def pr(self, kinds: Iterable[str] = KINDS) -> float:
        """PR over the counted decisions of ``kinds`` (all by default)."""
        chosen = tuple(kinds)
        return pr(self.equity_lost(chosen), self.decisions(chosen))

    def pr_half_width(self) -> float:
        """Half a 95% interval of the PR, treating decisions as independent (a rough bar)."""
        n = self.decisions()
        if n < 2:
            return math.inf
        mean = self.equity_lost() / n
        variance = max(0.0, self.squares / n - mean**2) * n / (n - 1)
        return 1.96 * PR_SCALE * math.sqrt(variance / n)
