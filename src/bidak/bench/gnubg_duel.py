"""``bidak bench bots --against gnubg``: a Bidak level against GNU Backgammon, duplicate dice.

Cubeless money games (the first game of a 25-point match with the cube off, so a single game
scores 1, a gammon 2, a backgammon 3): pair ``i`` plays game ``i`` twice with the same dice
(``SeededDice(f"{seed}:{i}")``), the seats swapped, and scores the Bidak side's mean points of
the two. The mean over the pairs, with a 95% confidence interval, is the points per game; the
same with each game's luck taken off (:mod:`bidak.bench.duel_luck`) is a second estimate of it
with less noise.
Cubeful matches, each engine taking its own cube decisions, are :mod:`bidak.bench.gnubg_match`
(``Settings.mode`` "match"); the results file, the resuming and the workers are shared.

GNU Backgammon plays through :mod:`bidak.bench.gnubg_worker`, a process of its own spoken to over
pipes (:mod:`bidak.bench.gnubg_process`; gnubg is GPL, and its bindings can crash or hang: a
worker that does not answer within its deadline is killed and restarted, and the pair is played
again).

Where the equity went: at every checker play both engines are asked; where they disagree both
results are judged by gnubg at a deeper ply (``judge_ply``, 3 by default) and the difference is
charged to the side that chose the worse one, by game phase (contact, race, bear-off). The
judge is a third opinion, not the truth: it says where the two differ and by how much in its
eyes.

Progress goes to a JSON-lines results file, one line a pair, so a run stopped anywhere resumes
where it was (:func:`run_duel` reads the pairs already there and plays the rest); the first
line records the settings (the mode and match length among them), and a file made with other
settings is refused.
"""

from __future__ import annotations

import json
import math
import os
import statistics
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bidak.bench.duel_luck import game_luck, luck_evaluator
from bidak.bench.gnubg_process import GnubgFailed, GnubgProcess
from bidak.engine.bots import Bot, make_bot
from bidak.engine.duel import play, points_for
from bidak.engine.levels import STYLES, BadStyle, Level, Style, style_from_repr
from bidak.match import (
    Action,
    MatchState,
    Move,
    Phase,
    Player,
    RejectResign,
    Roll,
    RuleSet,
    SeededDice,
    current_plays,
)
from bidak.rules import Play, Position, Side, find_play, outcome

PHASES = ("contact", "race", "bear-off")


def phase_of(position: Position) -> str:
    """contact, race, or bear-off (a race with all the mover's checkers home or off)."""
    if not position.is_race():
        return "contact"
    home = all(position.count(point) <= 0 for point in range(7, 25)) and position.bar.mover == 0
    return "bear-off" if home else "race"


class GnubgBot:
    """A seat played by GNU Backgammon at ``ply`` (cubeless money: no cube, no resignations)."""

    def __init__(self, gnubg: GnubgProcess, ply: int) -> None:
        self.gnubg, self.ply = gnubg, ply

    def choose(self, state: MatchState) -> Play:
        plays = current_plays(state)
        if len(plays) == 1:
            return plays[0]
        reply = self.gnubg.ask(self._move_request(state))
        return self._completed(state, reply["flat"], plays)

    def _move_request(self, state: MatchState) -> dict[str, Any]:
        assert state.dice is not None
        return {"op": "move", "id": state.position.position_id, "dice": state.dice, "ply": self.ply}

    def _completed(self, state: MatchState, flat: Sequence[int], plays: Sequence[Play]) -> Play:
        """The legal play gnubg's answer names. Its Python bindings end the move at the first
        checker borne off (an end of 0 ends the list), so an answer with an odd count lost
        that step and any after it: then the play is the legal one gnubg's own evaluation at
        the same ply ranks first (in a bear-off gnubg reads its databases at any ply, so this
        is the play it would make)."""
        assert state.dice is not None
        if len(flat) % 2 == 0:
            named = [(flat[i], flat[i + 1]) for i in range(0, len(flat), 2)]
            return find_play(state.position, state.dice, named, plays)
        return max(plays, key=lambda play: self.worth(state, play, self.ply))

    def worth(self, state: MatchState, play: Play, ply: int) -> float:
        """What ``play`` is worth to its maker in gnubg's eyes at ``ply``: cubeless money
        equity here, the match-winning chance in a match (:mod:`bidak.bench.gnubg_match`)."""
        return equity_after(self.gnubg, play.result, ply)

    def decide(self, state: MatchState, player: Player) -> Action:
        if state.phase is Phase.MOVE:
            return Move.of(player, self.choose(state))
        if state.phase is Phase.RESIGN_OFFERED:
            return RejectResign(player)
        return Roll(player)


def equity_after(gnubg: GnubgProcess, result: Position, ply: int) -> float:
    """gnubg's cubeless money equity of a play's ``result`` for the player who made it."""
    done = outcome(result)
    if done is not None:
        return float(done.kind) if done.winner is Side.MOVER else -float(done.kind)
    reply = gnubg.ask({"op": "equity", "id": result.flipped().position_id, "ply": ply})
    return -float(reply["equity"])


@dataclass(slots=True)
class Ledger:
    """Where the equity went in a stretch of games, in the judge's eyes, by kind of decision:
    the checker plays by phase, and in matches the cube decisions (``double``, ``take``)."""

    decisions: dict[str, int] = field(default_factory=lambda: dict.fromkeys(PHASES, 0))
    disagreed: dict[str, int] = field(default_factory=lambda: dict.fromkeys(PHASES, 0))
    bidak_lost: dict[str, float] = field(default_factory=lambda: dict.fromkeys(PHASES, 0.0))
    gnubg_lost: dict[str, float] = field(default_factory=lambda: dict.fromkeys(PHASES, 0.0))

    @classmethod
    def of(cls, kinds: Sequence[str]) -> Ledger:
        return cls(
            dict.fromkeys(kinds, 0),
            dict.fromkeys(kinds, 0),
            dict.fromkeys(kinds, 0.0),
            dict.fromkeys(kinds, 0.0),
        )

    def add(self, other: Ledger) -> None:
        for mine, theirs in (
            (self.decisions, other.decisions),
            (self.disagreed, other.disagreed),
            (self.bidak_lost, other.bidak_lost),
            (self.gnubg_lost, other.gnubg_lost),
        ):
            for kind, count in theirs.items():
                mine[kind] = mine.get(kind, 0) + count  # type: ignore[assignment]

    def as_json(self) -> dict[str, dict[str, float]]:
        return {name: dict(counts) for name, counts in asdict(self).items()}


Notice = Callable[[MatchState, Play, Play, float], None]
"""Told of a play the two engines parted on: the state, Bidak's play, gnubg's, and how much more
the judge found Bidak's worth (negative: gnubg's was better)."""


class Watched:
    """A seat of the duel, watched: at every checker play of ``inner``, whoever's it is, the
    other engine is asked too (``gnubg``, or ``opinion``: a Bidak bot of the level of its own,
    so the playing bot's randomness is the same as without the judging); where they differ,
    gnubg at ``judge_ply`` charges the difference to the engine whose choice it ranks lower,
    in ``ledger``."""

    def __init__(
        self,
        inner: Bot,
        is_bidak: bool,
        gnubg: GnubgBot,
        opinion: Bot,
        judge_ply: int,
        ledger: Ledger,
        notice: Notice | None = None,
    ) -> None:
        self.inner, self.is_bidak, self.gnubg, self.opinion = inner, is_bidak, gnubg, opinion
        self.judge_ply, self.ledger, self.notice = judge_ply, ledger, notice

    def decide(self, state: MatchState, player: Player) -> Action:
        action = self.inner.decide(state, player)
        self.watch(state, player, action)
        return action

    def watch(self, state: MatchState, player: Player, action: Action) -> None:
        plays = current_plays(state)
        if state.phase is not Phase.MOVE or len(plays) == 1:
            return
        assert isinstance(action, Move) and state.dice is not None
        phase = phase_of(state.position)
        self.ledger.decisions[phase] += 1
        chosen = find_play(state.position, state.dice, action.steps, plays)
        if self.is_bidak:
            other = self.gnubg.choose(state)
        else:
            answer = self.opinion.decide(state, player)
            assert isinstance(answer, Move)
            other = find_play(state.position, state.dice, answer.steps, plays)
        if other.result == chosen.result:
            return
        self.ledger.disagreed[phase] += 1
        mine, theirs = (chosen, other) if self.is_bidak else (other, chosen)
        judge = self.gnubg
        difference = judge.worth(state, mine, self.judge_ply) - judge.worth(
            state, theirs, self.judge_ply
        )
        self.charge(phase, difference)
        if self.notice is not None:
            self.notice(state, mine, theirs, difference)

    def charge(self, kind: str, difference: float) -> None:
        """Bidak's choice was worth ``difference`` more than gnubg's in the judge's eyes."""
        if difference < 0:
            self.ledger.bidak_lost[kind] -= difference
        else:
            self.ledger.gnubg_lost[kind] += difference


MONEY, MATCH = "money", "match"


@dataclass(frozen=True, slots=True)
class Settings:
    level: str
    ply: int
    seed: int
    judge_ply: int
    mode: str = MONEY
    """``money`` (cubeless single games) or ``match`` (whole matches, the cube on)."""
    length: int = 0
    """The length of the matches (0 for money)."""
    style: str = ""
    """How the level plays (its :class:`~bidak.engine.levels.Style`), filled in from the level
    when not given: a results file of the level as it played before a change of its style is
    another run, not one to resume."""

    def __post_init__(self) -> None:
        if (self.mode, self.length > 0) not in ((MONEY, False), (MATCH, True)):
            raise ValueError(f"a {self.mode} duel cannot have a match length of {self.length}")
        if not self.style:
            object.__setattr__(self, "style", repr(STYLES[Level.parse(self.level)]))

    @property
    def bot_style(self) -> Style:
        """How the Bidak side plays: its level's style, or the one ``--style`` made of it."""
        return style_from_repr(self.style)


@dataclass(frozen=True, slots=True)
class PairResult:
    index: int
    points: float
    """Money: the Bidak side's mean points of the pair's two games. Match: Bidak's share of the
    pair's two matches (0, 0.5 or 1)."""
    ledger: dict[str, dict[str, float]]
    margin: float = 0.0
    """Match: the mean over the two matches of Bidak's final score minus gnubg's (0 in money)."""
    luck: float | None = None
    """The mean over the pair's two games (match: two matches, in match-winning chances) of
    Bidak's luck (:mod:`bidak.bench.duel_luck`), so ``points - luck`` is the pair's
    luck-adjusted score; ``None`` for pairs stored before luck was recorded."""


def seated(seat: Player, bidak: Bot, gnubg: Bot) -> tuple[Bot, Bot]:
    """The two sides in seat order, Bidak's in ``seat``."""
    return (bidak, gnubg) if seat is Player.ZERO else (gnubg, bidak)


def play_pair(
    settings: Settings, index: int, gnubg: GnubgProcess, notice: Notice | None = None
) -> PairResult:
    """Pair ``index``: the same dice twice, Bidak in seat ZERO then in seat ONE (``notice``
    hears of each play the two engines parted on, as the judge charged it)."""
    rules = RuleSet(length=25, cube=False)
    rival = GnubgBot(gnubg, settings.ply)
    ledger = Ledger()
    total, luck = 0, 0.0
    level = Level.parse(settings.level)
    style = settings.bot_style
    for seat in (Player.ZERO, Player.ONE):
        bidak = make_bot(level, f"{settings.seed}:{index}:{seat.value}", style=style)
        opinion = make_bot(level, f"{settings.seed}:{index}:{seat.value}:opinion", style=style)
        judged = (rival, opinion, settings.judge_ply, ledger, notice)
        bots = seated(seat, Watched(bidak, True, *judged), Watched(rival, False, *judged))
        played = play(bots, rules, SeededDice(f"{settings.seed}:{index}"), games=1)
        total += points_for(played.games[0], seat)
        luck += game_luck(played.events, seat, luck_evaluator())
    return PairResult(index, total / 2, ledger.as_json(), luck=luck / 2)


def play_any(settings: Settings, index: int, gnubg: GnubgProcess) -> PairResult:
    """Pair ``index`` of a money duel or of a match duel, as ``settings`` say."""
    if settings.mode == MATCH:
        # gnubg_match builds on this module, so it is imported where it is needed
        from bidak.bench.gnubg_match import play_match_pair

        return play_match_pair(settings, index, gnubg)
    return play_pair(settings, index, gnubg)


_WORKER: GnubgProcess | None = None


def _pair_in_worker(settings: Settings, index: int) -> PairResult:
    global _WORKER
    if _WORKER is None:
        _WORKER = GnubgProcess()
    for _ in range(3):
        try:
            return play_any(settings, index, _WORKER)
        except GnubgFailed:
            _WORKER.close()  # a fresh worker plays the pair again from its first move
    return play_any(settings, index, _WORKER)


@dataclass(frozen=True, slots=True)
class Summary:
    settings: Settings
    pairs: int
    mean: float
    half_width: float
    ledger: Ledger
    margin: float = 0.0
    """Match: Bidak's final score minus gnubg's, the mean over the matches."""
    adjusted: tuple[int, float, float] | None = None
    """The luck-adjusted points a game (match: share of matches) over the pairs that recorded
    their luck: how many pairs, the mean and the half-width of its 95% interval (``None``: no
    such pair)."""

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """The mean of ``values`` (0 for none) and the half-width of its normal 95% interval
    (infinite for fewer than two)."""
    mean = statistics.fmean(values) if values else 0.0
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return mean, half


def summarise(settings: Settings, results: Sequence[PairResult]) -> Summary:
    points = [r.points for r in results]
    mean, half = mean_ci(points)
    ledger = Ledger()
    for result in results:
        ledger.add(Ledger(**result.ledger))  # type: ignore[arg-type]
    margin = statistics.fmean(r.margin for r in results) if results else 0.0
    lucky = [r.points - r.luck for r in results if r.luck is not None]
    adjusted = (len(lucky), *mean_ci(lucky)) if lucky else None
    return Summary(settings, len(points), mean, half, ledger, margin, adjusted)


def _same_settings(stored: object, settings: Settings) -> bool:
    """Whether a results file's recorded settings are ``settings``: the style compared as a
    style, so a file written before a field was added (at its default) is the same run."""
    if not isinstance(stored, dict) or {**stored, "style": ""} != {**asdict(settings), "style": ""}:
        return False
    try:
        return style_from_repr(str(stored["style"])) == settings.bot_style
    except BadStyle:
        return False


def read_results(path: Path, settings: Settings) -> list[PairResult]:
    """The pairs already in ``path`` (none if it does not exist); another run's file is an
    error, never mixed in."""
    if not path.exists():
        return []
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    if not lines:
        return []
    stored = lines[0].get("settings")
    if isinstance(stored, dict) and "style" not in stored:
        raise ValueError(
            f"{path} was written before a duel recorded how its level plays (the Expert has "
            "changed since): name another --out file"
        )
    if not _same_settings(stored, settings):
        what = f"a {stored.get('mode')} run" if isinstance(stored, dict) else "a run"
        raise ValueError(
            f"{path} holds {what} with other settings ({stored}); name another --out file"
        )
    return [PairResult(**line) for line in lines[1:]]


def run_duel(
    settings: Settings,
    pairs: int,
    out: Path,
    *,
    workers: int = 0,
    progress: Callable[[Summary], None] | None = None,
) -> Summary:
    """Play pairs until ``out`` holds ``pairs`` of them; the summary of all of them."""
    done = read_results(out, settings)
    if not out.exists() or not out.read_text().strip():
        out.write_text(json.dumps({"settings": asdict(settings)}) + "\n")
    have = {r.index for r in done}
    todo = [i for i in range(pairs) if i not in have]
    count = workers or max(1, min(len(todo), os.cpu_count() or 1))
    with out.open("a") as sink, ProcessPoolExecutor(count) as pool:
        futures = [pool.submit(_pair_in_worker, settings, index) for index in todo]
        for future in as_completed(futures):
            result = future.result()
            sink.write(json.dumps(asdict(result)) + "\n")
            sink.flush()
            done.append(result)
            if progress is not None:
                progress(summarise(settings, done))
    return summarise(settings, done)
