"""``bidak bench bots``: how long each bot level thinks, and how the levels fare against each other.

Timing: every level decides each state of one seeded sample of decisions (checker plays with a
choice, doubling decisions, answers to doubles) taken from Normal-vs-Normal matches, so the
positions look like real play. The same decisions are judged at ``judge_ply`` by
:class:`bidak.engine.judging.Judge`, so each level's PR on the sample is the one definition
reviews and calibration use (a small sample: calibration/ has the measured figures). Duel:
points per game between each pair of levels over paired games with shared dice (see
:func:`bidak.engine.duel.duel`). A level may also be timed and dueled playing another style
(``--style``, a :class:`Contender`), beside its own: how a candidate for the level is measured.
"""

from __future__ import annotations

import itertools
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from rich.table import Table

from bidak.engine.bots import Bot, make_bot, shared_engines
from bidak.engine.duel import DuelResult, duel, play
from bidak.engine.judging import Judge, Tally
from bidak.engine.levels import STYLES, Level, Style, restyle
from bidak.engine.sage import PLIES
from bidak.match import Action, MatchState, Phase, Player, RuleSet, SeededDice, decider

BUDGETS: dict[Level, float] = {Level.EXPERT: 1.5, Level.NORMAL: 0.1}
"""The p95 decision time each level must keep to, in seconds (issue 3)."""

Progress = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class Contender:
    """A bot the bench times and duels: a level playing its own style, or another one."""

    name: str
    level: Level
    style: Style

    @classmethod
    def of(cls, bot: Level | Contender) -> Contender:
        return bot if isinstance(bot, Contender) else cls(bot.value, bot, STYLES[bot])

    @classmethod
    def restyled(cls, level: Level, overrides: str) -> Contender:
        """``level`` playing its style changed by ``overrides`` (``field=value,...``, see
        :func:`~bidak.engine.levels.restyle`; raises ``BadStyle``), named after them."""
        style = restyle(STYLES[level], overrides, PLIES)
        return cls(f"{level.value} {overrides.replace(' ', '')}", level, style)

    def make(self, seed: int | str) -> Bot:
        return make_bot(self.level, seed, style=self.style)


def decision_states(count: int, seed: int = 2026) -> list[MatchState]:
    """``count`` states where a bot has a real decision, from seeded Normal-vs-Normal matches."""
    found: list[MatchState] = []

    def keep(state: MatchState, player: Player, action: Action) -> None:
        found.append(state)

    match = 0
    while len(found) < count:
        bots = (
            make_bot(Level.NORMAL, f"{seed}:{match}:0"),
            make_bot(Level.NORMAL, f"{seed}:{match}:1"),
        )
        play(bots, RuleSet(length=7), SeededDice(f"{seed}:{match}"), observe=keep)
        match += 1
    return found[:count]


@dataclass(frozen=True, slots=True)
class Timing:
    bot: Contender
    seconds: tuple[float, ...]
    kinds: tuple[str, ...]
    actions: tuple[Action, ...] = ()
    tally: Tally | None = None  # the decisions judged (see judge_timings)

    def quantile(self, q: float, kind: str | None = None) -> float:
        values = sorted(
            s for s, k in zip(self.seconds, self.kinds, strict=True) if kind in (None, k)
        )
        if not values:
            return float("nan")
        return values[min(len(values) - 1, int(q * len(values)))]

    def median(self, kind: str | None = None) -> float:
        values = [s for s, k in zip(self.seconds, self.kinds, strict=True) if kind in (None, k)]
        return statistics.median(values) if values else float("nan")


def time_levels(
    states: Sequence[MatchState], levels: Sequence[Level | Contender], *, seed: int = 2026
) -> list[Timing]:
    """Each level's decision time on every state (its evaluators made beforehand)."""
    timings = []
    clock = time.perf_counter
    for contender in map(Contender.of, levels):
        style = contender.style
        for ply in {style.ply, style.cube_ply}:  # the networks are read before the clock starts
            shared_engines().evaluator(ply)
        bot = contender.make(seed)
        seconds, kinds, actions = [], [], []
        for state in states:
            player = decider(state)
            assert player is not None
            start = clock()
            actions.append(bot.decide(state, player))
            seconds.append(clock() - start)
            kinds.append("checker" if state.phase is Phase.MOVE else "cube")
        timings.append(Timing(contender, tuple(seconds), tuple(kinds), tuple(actions)))
    return timings


def judge_timings(
    states: Sequence[MatchState], timings: Sequence[Timing], judge_ply: str
) -> list[Timing]:
    """The timings with each level's decisions judged at ``judge_ply`` (one evaluation a state)."""
    judge = Judge.at(judge_ply, shared_engines().evaluator, memo=True)
    judged = []
    for timing in timings:
        tally = Tally()
        for state, action in zip(states, timing.actions, strict=True):
            player = decider(state)
            assert player is not None
            tally.add_judged(judge.action(state, player, action))
        judged.append(replace(timing, tally=tally))
    return judged


def timing_table(timings: Sequence[Timing], judge_ply: str | None = None) -> Table:
    judged = "" if judge_ply is None else f", PR judged at {judge_ply} on the same decisions"
    table = Table(
        "level",
        "ply",
        "n",
        "median ms",
        "p95 ms",
        "max ms",
        "play p95",
        "cube p95",
        "p95 budget",
        "PR",
        "counted",
        title="Decision time per level" + judged,
    )
    table.columns[0].no_wrap = True  # a restyled level's name says what it changed
    for timing in timings:
        budget = BUDGETS.get(timing.bot.level)  # a restyled level keeps the level's budget
        p95 = timing.quantile(0.95)
        verdict = (
            "" if budget is None else f"{budget * 1000:.0f} " + ("ok" if p95 <= budget else "OVER")
        )
        table.add_row(
            timing.bot.name,
            timing.bot.style.depth,
            str(len(timing.seconds)),
            f"{timing.median() * 1000:.1f}",
            f"{p95 * 1000:.1f}",
            f"{max(timing.seconds) * 1000:.1f}",
            f"{timing.quantile(0.95, 'checker') * 1000:.1f}",
            f"{timing.quantile(0.95, 'cube') * 1000:.1f}",
            verdict,
            "" if timing.tally is None else f"{timing.tally.pr():.2f}",
            "" if timing.tally is None else str(timing.tally.decisions()),
        )
    return table


def duel_levels(
    levels: Sequence[Level | Contender],
    pairs: int,
    *,
    seed: int = 2026,
    length: int = 25,
    progress: Progress | None = None,
) -> list[DuelResult]:
    """Every pair of ``levels`` over ``pairs`` duplicate-dice pairs of games."""
    results = []
    for first, second in itertools.combinations(map(Contender.of, levels), 2):
        result = duel(
            (first.name, second.name),
            (first.make, second.make),
            pairs,
            seed=seed,
            length=length,
        )
        if progress is not None:
            progress(f"{first.name} vs {second.name}: {result.mean:+.3f} ppg")
        results.append(result)
    return results


def duel_table(results: Sequence[DuelResult], length: int) -> Table:
    table = Table(
        "first vs second",
        "pairs",
        "ppg (first)",
        "95% interval",
        title=f"Duels: game 1 of {length}-point matches, dice shared by paired games",
    )
    for result in results:
        low, high = result.mean - result.half_width, result.mean + result.half_width
        table.add_row(
            f"{result.first} vs {result.second}",
            str(result.pairs),
            f"{result.mean:+.3f}",
            f"[{low:+.3f}, {high:+.3f}]",
        )
    return table


def run(
    *,
    states: int = 150,
    pairs: int = 20,
    seed: int = 2026,
    length: int = 25,
    levels: Sequence[Level | Contender] = tuple(Level),
    judge_ply: str | None = "3ply",
    progress: Progress | None = None,
) -> list[Table]:
    """Both tables of ``bidak bench bots`` (``judge_ply`` ``None``: no PR column figures)."""
    say = progress or (lambda _: None)
    say(f"sampling {states} decisions from seeded Normal-vs-Normal matches")
    sample = decision_states(states, seed)
    say("timing " + ", ".join(Contender.of(level).name for level in levels))
    timings = time_levels(sample, levels, seed=seed)
    if judge_ply is not None:
        say(f"judging the decisions at {judge_ply}")
        timings = judge_timings(sample, timings, judge_ply)
    tables = [timing_table(timings, judge_ply)]
    if pairs > 0 and len(levels) > 1:
        say(f"duels: {pairs} pairs of games per pairing")
        tables.append(
            duel_table(duel_levels(levels, pairs, seed=seed, length=length, progress=say), length)
        )
    return tables
