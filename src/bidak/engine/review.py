"""Reviewing a match: every decision against the engine's, per-player error rates and luck.

:func:`review_match` takes a Bidak event log (a whole match, or one still being played);
:func:`review_mat` takes a ``.mat`` text or record. Both return a :class:`MatchReview`, plain
data whose ``to_json()`` holds everything below.

**What is judged** is :mod:`bidak.engine.judging`'s, the one definition of a decision's loss,
of what counts and of PR (also used by calibration and ``bidak bench bots``): every roll's play
is listed, forced ones (a dance included) listed but not counted; a double and the answer to it
are always listed; a hold (rolling when doubling was allowed) is listed only when it counts,
i.e. when the cube is live and doubling was within ``CLOSE_CUBE`` = 0.16 of the best (gnubg's
rule). The loss of each decision and the units (cubeful equity normalised to the cube, as
gnubg's EMG) are that module's.

**Verdicts** (by the loss, each band excluding the worse ones): doubtful >= 0.02, error >= 0.04,
blunder >= 0.08 (``DOUBTFUL``, ``ERROR``, ``BLUNDER``).

**Luck** of each roll (:mod:`bidak.engine.luck`), at 1-ply whatever the review's ply: the
roller's equity after the best play of the roll rolled minus the average over the 21 rolls
(doubles weigh 1, the others 2) of the equity after each roll's best play; the opening roll is
averaged over the 15 non-doubles and credited to the player who plays it.

**Totals** per player: PR (:func:`bidak.engine.judging.pr`, also for checker play and cube
alone), the counts of doubtful plays, errors and blunders among the counted decisions, the number
of counted decisions, and the sum of the player's luck. Resignations are not reviewed.

Cost, measured on the 2-core machine for a 7-point match of 445 rolls (343 unforced plays):
3.5 s at 1-ply, 18 s at 2-ply. Luck is about 5 ms a roll; a checker decision about 3 ms at
1-ply and 40 ms at 2-ply; a cube decision 16 µs at 1-ply and about 35 ms at 2-ply. Engines
are made once per process and ply (:func:`hints.shared_evaluator`).

Plays the server made for a player on autoplay (after a timeout) are reviewed like any other.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

from bidak.engine.context import context_for
from bidak.engine.hints import check_ply, shared_evaluator
from bidak.engine.judging import CLOSE_CUBE, SCREEN_CUBE, CubeJudgement, Judge, Kind
from bidak.engine.luck import roll_luck
from bidak.engine.review_model import (
    BLUNDER,
    DOUBTFUL,
    ERROR,
    THRESHOLDS,
    CheckerDecision,
    CubeChoice,
    CubeDecision,
    Decision,
    GameReview,
    MatchReview,
    PlayerTotals,
    Verdict,
    Where,
    totals_for,
)
from bidak.engine.review_walk import CheckerSpot, CubeSpot, GameMark, played_play, state_ids, walk
from bidak.engine.sage import EngineError, Evaluator
from bidak.formats import MatRecord, read_mat
from bidak.formats.match_mat import mat_to_match
from bidak.match import Event, MatchStarted, Phase, Player

__all__ = [
    "BLUNDER",
    "CLOSE_CUBE",
    "DOUBTFUL",
    "ERROR",
    "SCREEN_CUBE",
    "THRESHOLDS",
    "CheckerDecision",
    "CubeChoice",
    "CubeDecision",
    "GameReview",
    "MatchReview",
    "PlayerTotals",
    "Progress",
    "Verdict",
    "review_mat",
    "review_match",
]

Progress = Callable[[int, int], None]
"""Called with (decisions evaluated, decisions in all) as the review goes."""

DEFAULT_PLAYERS = ("Player 0", "Player 1")


def review_mat(
    text_or_record: str | MatRecord,
    ply: str = "2ply",
    progress: Progress | None = None,
    *,
    evaluator: Evaluator | None = None,
) -> MatchReview:
    """Review a ``.mat`` match (its text, or a record read with :func:`read_mat`)."""
    check_ply(ply)
    record = read_mat(text_or_record) if isinstance(text_or_record, str) else text_or_record
    _, events = mat_to_match(record)
    return review_match(events, ply, progress, players=record.players, evaluator=evaluator)


def review_match(
    events: Iterable[Event],
    ply: str = "2ply",
    progress: Progress | None = None,
    *,
    players: tuple[str, str] = DEFAULT_PLAYERS,
    evaluator: Evaluator | None = None,
) -> MatchReview:
    """Review every decision of a match's event log at ``ply`` (``evaluator`` overrides it and
    judges every decision, races included)."""
    check_ply(ply)
    log = list(events)
    started = next((e for e in log if isinstance(e, MatchStarted)), None)
    if started is None:
        raise EngineError("a match log starts with match_started; there is nothing to review")
    items = list(walk(log))
    quick = shared_evaluator("1ply")
    judge = Judge.at(ply, shared_evaluator) if evaluator is None else Judge(evaluator, quick)
    reviewer = _Reviewer(judge, quick)
    total = sum(1 for item in items if not isinstance(item, GameMark))
    done = 0
    if progress is not None:
        progress(done, total)
    games: list[_Game] = []
    for item in items:
        if isinstance(item, GameMark):
            if item.started is not None:
                start = item.started
                games.append(_Game(start.game, start.score, start.crawford))
            elif item.won is not None and games:
                games[-1].winner, games[-1].points = item.won.winner, item.won.points
            continue
        games[-1].decisions.extend(reviewer.review(item))
        done += 1
        if progress is not None:
            progress(done, total)
    reviewed = tuple(game.freeze() for game in games)
    return MatchReview(
        started.rules.length,
        players,
        judge.ply,
        reviewed,
        (
            totals_for(Player.ZERO, players[0], reviewed),
            totals_for(Player.ONE, players[1], reviewed),
        ),
    )


@dataclass
class _Game:
    number: int
    score: tuple[int, int]
    crawford: bool
    decisions: list[Decision] = field(default_factory=list)
    winner: Player | None = None
    points: int = 0

    def freeze(self) -> GameReview:
        return GameReview(
            self.number, self.score, self.crawford, tuple(self.decisions), self.winner, self.points
        )


class _Reviewer:
    """Judges spots with ``judge``; ``quick`` (1-ply) gives every roll's luck."""

    def __init__(self, judge: Judge, quick: Evaluator) -> None:
        self.judge = judge
        self.quick = quick

    def review(self, spot: CheckerSpot | CubeSpot) -> list[Decision]:
        if isinstance(spot, CheckerSpot):
            return [self.checker(spot)]
        return self.cube(spot)

    def checker(self, spot: CheckerSpot) -> CheckerDecision:
        state, player = spot.state, spot.player
        assert state.dice is not None
        context = context_for(state, player)
        luck = roll_luck(self.quick, state.position, state.dice, context, opening=spot.opening)
        judged = self.judge.play(state, player, played_play(spot))
        equity_played = luck.actual if judged.equity_played is None else judged.equity_played
        equity_best = luck.actual if judged.equity_best is None else judged.equity_best
        return CheckerDecision(
            where=_where(spot, player),
            dice=state.dice,
            played=str(judged.played),
            best=str(judged.best),
            equity_played=equity_played,
            equity_best=equity_best,
            loss=judged.loss,
            choices=judged.choices,
            luck=luck.luck,
            opening=spot.opening,
        )

    def cube(self, spot: CubeSpot) -> list[Decision]:
        double = self.judge.double(spot.state, spot.doubled)
        if double is None:
            return []  # holding was no decision (see bidak.engine.judging)
        found: list[Decision] = [_cube_decision(spot, double, spot.player)]
        if spot.taken is not None:
            answer = self.judge.answer(spot.state, spot.taken)
            doubled = replace(spot, state=replace(spot.state, phase=Phase.DOUBLED))
            found.append(_cube_decision(doubled, answer, spot.player.opponent))
        return found


_CHOICES = {
    (Kind.DOUBLE, True): CubeChoice.DOUBLE,
    (Kind.DOUBLE, False): CubeChoice.NO_DOUBLE,
    (Kind.TAKE, True): CubeChoice.TAKE,
    (Kind.TAKE, False): CubeChoice.DROP,
}


def _cube_decision(spot: CubeSpot, judged: CubeJudgement, player: Player) -> CubeDecision:
    verdict = judged.verdict
    return CubeDecision(
        where=_where(spot, player),
        choice=_CHOICES[judged.kind, judged.chose],
        best=_CHOICES[judged.kind, judged.best],
        no_double=verdict.no_double,
        double_take=verdict.double_take,
        double_pass=verdict.double_pass,
        loss=judged.loss,
        counted=True,
        ply=verdict.ply,
    )


def _where(spot: CheckerSpot | CubeSpot, player: Player) -> Where:
    gnubg_id, xgid = state_ids(spot.state)
    return Where(
        game=spot.game,
        turn=spot.turn,
        player=player,
        position_id=spot.state.position.position_id,
        gnubg_id=gnubg_id,
        xgid=xgid,
        cube=spot.state.cube,
    )
