"""Calibrating bot levels by measurement: the PR each level plays at, judged deeper than it plays.

:func:`calibrate_match` plays one seeded match between bots (the measured level against itself or
another level), has a :class:`~bidak.engine.judging.Judge` judge every decision of the
measured level at ``judge_ply`` (that module defines what a decision's loss is, what counts and
PR, the same for reviews) and returns a :class:`MatchReport`. :class:`Calibration` gathers
reports into a JSON-able record that a script (``scripts/calibrate.py``) writes after each match,
so a run of hours can be watched, stopped and resumed.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any, Final

from bidak.engine.bots import Engines, SageBot, shared_engines
from bidak.engine.duel import play
from bidak.engine.judging import CUBE_KINDS, DEFINITION, KINDS, PR_SCALE, Judge, Judged, Kind, Tally
from bidak.engine.levels import STYLES, Level, Style
from bidak.match import Action, Event, GameWon, MatchState, Player, RuleSet, SeededDice

__all__ = [
    "KINDS",
    "PR_SCALE",
    "Calibration",
    "Judge",
    "Judged",
    "MatchReport",
    "Setup",
    "Tally",
    "calibrate_match",
    "default_judge_ply",
    "make_judge",
]

WORST_KEPT: Final = 12


@dataclass(slots=True)
class MatchReport:
    """One calibration match: its games, the measured decisions and the worst errors."""

    index: int
    games: int
    tally: Tally
    worst: list[Judged]
    seconds: float = 0.0
    events: tuple[Event, ...] = ()  # the match's log (not stored in the JSON)


@dataclass(frozen=True, slots=True)
class Setup:
    """What a calibration run measures; a run only resumes with the same setup."""

    level: Level
    style: Style
    judge_ply: str
    opponent: Level | None = None  # None: the level plays itself and both seats are measured
    length: int = 7
    seed: int = 2026
    definition: str = DEFINITION  # how decisions are judged (bidak.engine.judging)

    def to_json(self) -> dict[str, Any]:
        return {
            "definition": self.definition,
            "level": self.level.value,
            "style": asdict(self.style),
            "judge_ply": self.judge_ply,
            "opponent": None if self.opponent is None else self.opponent.value,
            "length": self.length,
            "seed": self.seed,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Setup:
        opponent = data.get("opponent")
        return cls(
            Level.parse(data["level"]),
            Style(**data["style"]),
            str(data["judge_ply"]),
            None if opponent is None else Level.parse(opponent),
            int(data["length"]),
            int(data["seed"]),
            # Runs made before the judging module have no name: never resumed as this one.
            str(data.get("definition", "calibrate_judge (close 0.25, before judging)")),
        )


def calibrate_match(
    setup: Setup,
    index: int,
    judge: Judge,
    *,
    engines: Engines | None = None,
    on_game: Callable[[GameWon], None] | None = None,
) -> MatchReport:
    """Play match ``index`` of ``setup`` and judge every decision of the measured level."""
    started = time.perf_counter()
    seats = _seats(setup, index, engines)
    measured = {seat for seat in Player if setup.opponent is None or seat is _measured_seat(index)}
    tally = Tally()
    judged: list[Judged] = []

    def observe(state: MatchState, player: Player, action: Action) -> None:
        if player in measured:
            found = judge.action(state, player, action)
            tally.add_judged(found)
            if found is not None and found.loss > 0:
                judged.append(found)

    played = play(
        seats,
        RuleSet(length=setup.length),
        SeededDice(f"{setup.seed}:{index}:dice"),
        observe=observe,
        on_game=on_game,
    )
    worst = sorted(judged, key=lambda j: -j.loss)[:WORST_KEPT]
    seconds = time.perf_counter() - started
    return MatchReport(index, len(played.games), tally, worst, seconds, played.events)


def _measured_seat(index: int) -> Player:
    return Player.ZERO if index % 2 == 0 else Player.ONE


def _seats(setup: Setup, index: int, engines: Engines | None) -> tuple[SageBot, SageBot]:
    def bot(level: Level, style: Style | None, seat: Player) -> SageBot:
        seed = f"{setup.seed}:{index}:bot:{seat.value}"
        return SageBot(level, random.Random(seed), style=style, engines=engines)

    if setup.opponent is None:
        return (
            bot(setup.level, setup.style, Player.ZERO),
            bot(setup.level, setup.style, Player.ONE),
        )
    mine = _measured_seat(index)
    first = bot(setup.level, setup.style, mine)
    other = bot(setup.opponent, STYLES[setup.opponent], mine.opponent)
    return (first, other) if mine is Player.ZERO else (other, first)


@dataclass(slots=True)
class Calibration:
    """A calibration run: its setup and the reports of the matches played so far."""

    setup: Setup
    reports: list[MatchReport] = field(default_factory=list)

    @property
    def games(self) -> int:
        return sum(report.games for report in self.reports)

    def tally(self) -> Tally:
        return Tally.of(report.tally for report in self.reports)

    def summary(self) -> dict[str, Any]:
        tally = self.tally()
        return {
            "matches": len(self.reports),
            "games": self.games,
            "decisions": tally.decisions(),
            "counted": dict(tally.count),
            "forced": tally.uncounted,
            "pr": _round(tally.pr()),
            "pr_95_half_width": _round(tally.pr_half_width()),
            "pr_checker": _round(tally.pr((Kind.PLAY,))),
            "pr_cube": _round(tally.pr(CUBE_KINDS)),
            "seconds": round(sum(report.seconds for report in self.reports), 1),
        }

    def to_json(self) -> dict[str, Any]:
        worst = sorted(
            (judged for report in self.reports for judged in report.worst),
            key=lambda judged: -judged.loss,
        )[:WORST_KEPT]
        return {
            "setup": self.setup.to_json(),
            "summary": self.summary(),
            "worst": [_judged_json(judged) for judged in worst],
            "matches": [_report_json(report) for report in self.reports],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Calibration:
        setup = Setup.from_json(data["setup"])
        reports = [_report_from_json(item) for item in data["matches"]]
        return cls(setup, reports)


def _round(value: float) -> float | None:
    return None if math.isnan(value) or math.isinf(value) else round(value, 2)


def _judged_json(judged: Judged) -> dict[str, Any]:
    data = asdict(judged)
    data["loss"] = round(judged.loss, 4)
    return data


def _report_json(report: MatchReport) -> dict[str, Any]:
    tally = report.tally
    return {
        "index": report.index,
        "games": report.games,
        "seconds": round(report.seconds, 1),
        "count": tally.count,
        "loss": {kind: round(value, 6) for kind, value in tally.loss.items()},
        "squares": round(tally.squares, 6),
        "forced": tally.uncounted,
        "worst": [_judged_json(judged) for judged in report.worst[:3]],
    }


def _report_from_json(data: dict[str, Any]) -> MatchReport:
    count, loss = dict(data["count"]), dict(data["loss"])
    tally = Tally(count, loss, float(data["squares"]), int(data["forced"]))
    worst = [
        Judged(
            **{
                **item,
                "dice": None if item["dice"] is None else tuple(item["dice"]),
                "away": tuple(item["away"]),
            }
        )
        for item in data["worst"]
    ]
    return MatchReport(int(data["index"]), int(data["games"]), tally, worst, data["seconds"])


def make_judge(ply: str, engines: Engines | None = None) -> Judge:
    """The judge of a calibration run: ``ply`` deep, screening holds at 1-ply."""
    found = shared_engines() if engines is None else engines
    return Judge.at(ply, found.evaluator)


def default_judge_ply(level: Level) -> str:
    """One ply deeper than the level plays: 2-ply for the 1-ply levels, 3-ply for Expert."""
    plies = {"1ply": "2ply", "2ply": "3ply"}
    return plies.get(STYLES[level].ply, "3ply")
