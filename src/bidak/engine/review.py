"""Reviewing a match: every decision against the engine's, per-player error rates and luck.

:func:`review_match` takes a Bidak event log (a whole match, or one still being played);
:func:`review_mat` takes a ``.mat`` text or record. Both return a :class:`MatchReview`, plain
data whose ``to_json()`` holds everything below.

**Checker decisions.** Every roll's play is listed. One with a single legal play (a dance
included) is *forced*: listed, never counted. The others are ranked by the engine at the
review's level; the loss is the best play's equity minus the played one's.

**Cube decisions.** The doubler's decision is looked at before each roll where the rules let
the player on roll double:

- a double is always counted;
- not doubling (rolling instead) is looked at only when the cube is live (gnubg's rule: in a
  match the cube must be below what the doubler needs, see :func:`hints.cube_available`), and
  counted only when doubling was a real candidate: when the
  double's equity ``D = min(DT, DP)`` is within ``CLOSE_CUBE`` = 0.16 of the best of no double
  and double, i.e. ``max(ND, D) - D < 0.16``. This is gnubg's ``isCloseCubedecision`` (eval.c),
  and it includes every missed double (then ``D`` is the best). Other rolls are not decisions
  and are not listed. At 2-ply and deeper each position is first screened at 1-ply (16 µs) and
  only evaluated at the review's level (about 45 ms) when the 1-ply gap is below
  ``SCREEN_CUBE`` = 0.30;
- the taker's take or drop is always counted.

The doubler's loss is ``max(ND, D)`` minus ``D`` (doubled) or ``ND`` (did not); the taker's is
``DT - DP`` for a wrong take and ``DP - DT`` for a wrong drop, in the doubler's units.

**Units.** All equities are the engine's cubeful equities normalised to the cube in play
(+1 = winning the cube's worth; in a match on the linear match-winning-chance scale), so a
loss at a 4-cube is not multiplied by 4. Cube losses are at the cube before the double.

**Verdicts** (by the loss, each band excluding the worse ones): doubtful >= 0.02, error >= 0.04,
blunder >= 0.08 (``DOUBTFUL``, ``ERROR``, ``BLUNDER``).

**Luck** of each roll (:mod:`bidak.engine.luck`), at 1-ply whatever the review's level: the
roller's equity after the best play of the roll rolled minus the average over the 21 rolls
(doubles weigh 1, the others 2) of the equity after each roll's best play; the opening roll is
averaged over the 15 non-doubles and credited to the player who plays it.

**Totals** per player: PR = mean loss per counted decision x 500 (XG's Performance Rating;
also for checker play and cube alone), the counts of doubtful plays, errors and blunders,
the number of counted decisions, and the sum of the player's luck. Resignations are not
reviewed.

Cost, measured on the 2-core machine for a 7-point match of 445 rolls (343 unforced plays):
3.5 s at 1-ply, 18 s at 2-ply. Luck is about 5 ms a roll; a checker decision about 3 ms at
1-ply and 40 ms at 2-ply; a cube decision 16 µs at 1-ply and about 35 ms at 2-ply. Engines
are made once per process and level (:func:`hints.shared_evaluator`).

Plays the server made for a player on autoplay (after a timeout) are reviewed like any other.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

from bidak.engine.context import context_for
from bidak.engine.hints import check_level, cube_available, shared_evaluator
from bidak.engine.luck import roll_luck
from bidak.engine.review_model import (
    BLUNDER,
    CLOSE_CUBE,
    DOUBTFUL,
    ERROR,
    SCREEN_CUBE,
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
from bidak.engine.sage import CubeVerdict, EngineError, Evaluator
from bidak.formats import MatRecord, read_mat
from bidak.formats.match_mat import mat_to_match
from bidak.match import Event, MatchStarted, Phase, Player
from bidak.rules import legal_plays

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
    level: str = "2ply",
    progress: Progress | None = None,
    *,
    evaluator: Evaluator | None = None,
) -> MatchReview:
    """Review a ``.mat`` match (its text, or a record read with :func:`read_mat`)."""
    check_level(level)
    record = read_mat(text_or_record) if isinstance(text_or_record, str) else text_or_record
    _, events = mat_to_match(record)
    return review_match(events, level, progress, players=record.players, evaluator=evaluator)


def review_match(
    events: Iterable[Event],
    level: str = "2ply",
    progress: Progress | None = None,
    *,
    players: tuple[str, str] = DEFAULT_PLAYERS,
    evaluator: Evaluator | None = None,
) -> MatchReview:
    """Review every decision of a match's event log at ``level`` (``evaluator`` overrides it)."""
    engine = evaluator or shared_evaluator(check_level(level))
    log = list(events)
    started = next((e for e in log if isinstance(e, MatchStarted)), None)
    if started is None:
        raise EngineError("a match log starts with match_started; there is nothing to review")
    items = list(walk(log))
    reviewer = _Reviewer(engine, shared_evaluator("1ply"))
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
        engine.level,
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
    """Evaluates spots: ``engine`` at the review's level, ``quick`` at 1-ply (luck, screening)."""

    def __init__(self, engine: Evaluator, quick: Evaluator) -> None:
        self.engine = engine
        self.quick = quick

    def review(self, spot: CheckerSpot | CubeSpot) -> list[Decision]:
        if isinstance(spot, CheckerSpot):
            return [self.checker(spot)]
        return self.cube(spot)

    def checker(self, spot: CheckerSpot) -> CheckerDecision:
        state, player = spot.state, spot.player
        assert state.dice is not None
        position, dice = state.position, state.dice
        context = context_for(state, player)
        play = played_play(spot)
        plays = {candidate.result: candidate for candidate in legal_plays(position, dice)}
        luck = roll_luck(self.quick, position, dice, context, opening=spot.opening)
        if len(plays) == 1:
            equity_played = equity_best = luck.actual
            best = play
        else:
            ranked = self.engine.rank(position, dice, context)
            found = next((r for r in ranked if r.result == play.result), None)
            if found is None or ranked[0].result not in plays:
                raise EngineError(
                    f"the engine did not rank the play {play} ({position.position_id})"
                )
            equity_played, equity_best = found.equity, ranked[0].equity
            best = plays[ranked[0].result]
        return CheckerDecision(
            where=_where(spot, player),
            dice=dice,
            played=str(play),
            best=str(best),
            equity_played=equity_played,
            equity_best=equity_best,
            loss=max(0.0, equity_best - equity_played),
            choices=len(plays),
            luck=luck.luck,
            opening=spot.opening,
        )

    def cube(self, spot: CubeSpot) -> list[Decision]:
        state, doubler = spot.state, spot.player
        context = context_for(state, doubler)
        if spot.doubled:
            verdict = self.engine.cube(state.position, context)
        elif not cube_available(context):
            return []  # a dead cube: a win at this cube already takes the match
        else:
            first = self.quick.cube(state.position, context)
            if self.engine is self.quick or self.engine.level == "1ply":
                verdict = first
            elif _gap(first) < SCREEN_CUBE:
                verdict = self.engine.cube(state.position, context)
            else:
                return []
            if _gap(verdict) >= CLOSE_CUBE:
                return []
        found: list[Decision] = [_doubler_decision(spot, verdict)]
        if spot.taken is not None:
            found.append(_taker_decision(spot, verdict))
        return found


def _gap(verdict: CubeVerdict) -> float:
    """How far doubling is from the best cube action (0 when doubling is best)."""
    return verdict.best_equity - verdict.double_equity


def _doubler_decision(spot: CubeSpot, verdict: CubeVerdict) -> CubeDecision:
    double = verdict.double_equity
    best = CubeChoice.DOUBLE if double > verdict.no_double else CubeChoice.NO_DOUBLE
    chosen = double if spot.doubled else verdict.no_double
    return CubeDecision(
        where=_where(spot, spot.player),
        choice=CubeChoice.DOUBLE if spot.doubled else CubeChoice.NO_DOUBLE,
        best=best,
        no_double=verdict.no_double,
        double_take=verdict.double_take,
        double_pass=verdict.double_pass,
        loss=max(0.0, verdict.best_equity - chosen),
        counted=True,
        level=verdict.level,
    )


def _taker_decision(spot: CubeSpot, verdict: CubeVerdict) -> CubeDecision:
    take, drop = verdict.double_take, verdict.double_pass
    doubled = replace(spot, state=replace(spot.state, phase=Phase.DOUBLED))
    return CubeDecision(
        where=_where(doubled, spot.player.opponent),
        choice=CubeChoice.TAKE if spot.taken else CubeChoice.DROP,
        best=CubeChoice.TAKE if take <= drop else CubeChoice.DROP,
        no_double=verdict.no_double,
        double_take=take,
        double_pass=drop,
        loss=max(0.0, take - drop) if spot.taken else max(0.0, drop - take),
        counted=True,
        level=verdict.level,
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
