"""Judging a bot's decisions for its PR (eXtreme Gammon's convention).

PR is the average equity lost per non-obvious decision, times 500. Equity is the engine's
cubeful, cube-normalised equity (+1 = winning the cube's worth), so an error at cube 4 counts as
much as the same error at cube 1. The decisions that count are

- checker plays with more than one legal play;
- takes and drops (every answer to a double);
- doubling decisions (on roll, doubling allowed) where the player doubled, made an error, or
  the choice was close: no double and double within ``close`` of each other, as GNU Backgammon
  counts "close or actual" cube decisions; never when doubling changes (next to) nothing.
  Clear no-doubles would otherwise dilute the PR; the tally keeps them apart, so the wider
  count (every doubling decision, ``Tally.pr(all_cube=True)``) is one flag away.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Final

from bidak.engine.bots import Engines, shared_engines
from bidak.engine.bots_choice import NOTHING_AT_STAKE
from bidak.engine.context import context_for
from bidak.match import Action, Double, MatchState, Move, Phase, Player, Take, current_plays
from bidak.rules import find_play

PR_SCALE: Final = 500
KINDS: Final = ("play", "double", "take")


@dataclass(frozen=True, slots=True)
class Judged:
    """One decision of the measured bot, as the judge saw it."""

    kind: str  # "play", "double" (on roll, doubling allowed) or "take" (answering a double)
    loss: float  # equity given up against the judge's best, >= 0
    counted: bool  # part of the PR (see the module docstring)
    close: bool  # a cube decision that counts even without an error
    position_id: str
    dice: tuple[int, int] | None
    away: tuple[int, int]
    cube: int
    chosen: str
    best: str


class Judge:
    """Judges decisions at one ply (deeper than the bot plays, to see its errors)."""

    def __init__(self, ply: str, engines: Engines | None = None, close: float = 0.25) -> None:
        self.ply = ply
        self.close = close
        self._evaluator = (shared_engines() if engines is None else engines).evaluator(ply)

    def judge(self, state: MatchState, player: Player, action: Action) -> Judged | None:
        """The judgement of ``player`` taking ``action`` in ``state``; ``None`` if forced."""
        if state.phase is Phase.MOVE and isinstance(action, Move):
            return self._play(state, player, action)
        if state.phase is Phase.ROLL:
            return self._double(state, player, doubled=isinstance(action, Double))
        if state.phase is Phase.DOUBLED:
            return self._take(state, player, took=isinstance(action, Take))
        return None  # resignation answers are not part of the PR

    def _play(self, state: MatchState, player: Player, action: Move) -> Judged | None:
        plays = current_plays(state)
        if len(plays) < 2:
            return None
        assert state.dice is not None
        chosen = find_play(state.position, state.dice, action.steps)
        ranked = self._evaluator.rank(state.position, state.dice, context_for(state, player))
        equity = {candidate.result: candidate.equity for candidate in ranked}
        best = ranked[0]
        names = {play.result: str(play) for play in plays}
        loss = max(0.0, best.equity - equity[chosen.result])
        return self._record(state, player, "play", loss, True, str(chosen), names[best.result])

    def _double(self, state: MatchState, player: Player, *, doubled: bool) -> Judged:
        verdict = self._evaluator.cube(state.position, context_for(state, player))
        no_double, double = verdict.no_double, verdict.double_equity
        loss = max(0.0, max(no_double, double) - (double if doubled else no_double))
        gap = abs(no_double - double)
        close = NOTHING_AT_STAKE < gap <= self.close
        counted = gap > NOTHING_AT_STAKE and (doubled or close or loss > 0.0)
        names = ("double", "no double")
        best = names[0] if double > no_double else names[1]
        chosen = names[0] if doubled else names[1]
        return self._record(state, player, "double", loss, counted, chosen, best, close=close)

    def _take(self, state: MatchState, player: Player, *, took: bool) -> Judged:
        doubler = player.opponent
        verdict = self._evaluator.cube(state.position, context_for(state, doubler))
        take, drop = -verdict.double_take, -verdict.double_pass
        loss = max(0.0, max(take, drop) - (take if took else drop))
        best = "take" if take >= drop else "drop"
        return self._record(state, player, "take", loss, True, "take" if took else "drop", best)

    def _record(
        self,
        state: MatchState,
        player: Player,
        kind: str,
        loss: float,
        counted: bool,
        chosen: str,
        best: str,
        *,
        close: bool = True,
    ) -> Judged:
        return Judged(
            kind,
            loss,
            counted,
            close,
            state.position.position_id,
            state.dice,
            (state.away(player), state.away(player.opponent)),
            state.cube,
            chosen,
            best,
        )


@dataclass(slots=True)
class Tally:
    """Counted decisions and the equity they lost, per kind; plus the uncounted ones."""

    count: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    loss: dict[str, float] = field(default_factory=lambda: dict.fromkeys(KINDS, 0.0))
    squares: float = 0.0  # sum of squared losses of counted decisions (for the error bar)
    forced: int = 0  # forced plays and clear cube decisions
    clear_cube_loss: float = 0.0  # losses in uncounted cube decisions (always 0 by definition)
    clear_cube: int = 0

    def add(self, judged: Judged | None) -> None:
        if judged is None:
            self.forced += 1
        elif judged.counted:
            self.count[judged.kind] += 1
            self.loss[judged.kind] += judged.loss
            self.squares += judged.loss**2
        else:
            self.clear_cube += 1
            self.clear_cube_loss += judged.loss

    def merge(self, other: Tally) -> None:
        for kind in KINDS:
            self.count[kind] += other.count[kind]
            self.loss[kind] += other.loss[kind]
        self.squares += other.squares
        self.forced += other.forced
        self.clear_cube += other.clear_cube
        self.clear_cube_loss += other.clear_cube_loss

    @property
    def decisions(self) -> int:
        return sum(self.count.values())

    def pr(self, kinds: tuple[str, ...] = KINDS, *, all_cube: bool = False) -> float:
        """PR over ``kinds``; ``all_cube`` also counts every clear doubling decision."""
        count = sum(self.count[kind] for kind in kinds)
        loss = sum(self.loss[kind] for kind in kinds)
        if all_cube and "double" in kinds:
            count += self.clear_cube
            loss += self.clear_cube_loss
        return PR_SCALE * loss / count if count else math.nan

    def pr_half_width(self) -> float:
        """Half a 95% interval of the PR, treating decisions as independent (a rough bar)."""
        n = self.decisions
        if n < 2:
            return math.inf
        mean = sum(self.loss.values()) / n
        variance = max(0.0, self.squares / n - mean**2) * n / (n - 1)
        return 1.96 * PR_SCALE * math.sqrt(variance / n)
