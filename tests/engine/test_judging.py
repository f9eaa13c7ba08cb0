"""One definition of a decision's loss, of what counts and of PR, whoever asks.

A match played by the calibration and judged there gives the same PR as the same match written to
``.mat`` and reviewed by ``bidak analyze``; the rules of :mod:`bidak.engine.judging` hold on
hand-made verdicts.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bidak.cli import app
from bidak.engine.calibrate import Setup, calibrate_match, make_judge
from bidak.engine.judging import (
    CLOSE_CUBE,
    CUBE_KINDS,
    Kind,
    Tally,
    doubler_loss,
    hold_is_close,
    pr,
    taker_loss,
)
from bidak.engine.levels import STYLES, Level
from bidak.engine.sage import CubeVerdict, Probabilities
from bidak.formats import write_mat
from bidak.formats.match_mat import match_to_mat

runner = CliRunner()


def verdict(no_double: float, double_take: float, double_pass: float = 1.0) -> CubeVerdict:
    chances = Probabilities(0.7, 0.1, 0.0, 0.05, 0.0)
    return CubeVerdict(no_double, double_take, double_pass, False, True, chances, "test")


def test_cube_losses_and_what_a_close_hold_is() -> None:
    # A missed double: doubling (D = min(DT, DP) = 0.8) was best by 0.1.
    missed = verdict(0.7, 0.8)
    assert doubler_loss(missed, doubled=False) == pytest.approx(0.1)
    assert doubler_loss(missed, doubled=True) == 0.0 and hold_is_close(missed)
    # Too good: holding is best and a drop is the double's worth.
    too_good = verdict(1.3, 1.6, 1.0)
    assert doubler_loss(too_good, doubled=True) == pytest.approx(0.3)
    assert not hold_is_close(too_good)
    # Early: doubling gives up more than CLOSE_CUBE, so holding is no decision.
    early = verdict(0.3, 0.3 - CLOSE_CUBE - 0.01)
    assert not hold_is_close(early) and hold_is_close(verdict(0.3, 0.3 - CLOSE_CUBE + 0.01))
    # The taker's loss is in the doubler's units: a take of a pass gives the doubler DT > DP.
    assert taker_loss(verdict(0.5, 1.2, 1.0), took=True) == pytest.approx(0.2)
    assert taker_loss(verdict(0.5, 0.8, 1.0), took=False) == pytest.approx(0.2)
    assert taker_loss(verdict(0.5, 0.8, 1.0), took=True) == 0.0


def test_pr_is_500_times_the_mean_loss_and_zero_over_nothing() -> None:
    tally = Tally()
    assert tally.pr() == 0.0 and tally.decisions() == 0
    tally.add(Kind.PLAY, 0.04)
    tally.add(Kind.PLAY, 0.0)
    tally.add(Kind.PLAY, 0.3, counted=False)  # a forced play never counts, whatever its number
    tally.add(Kind.DOUBLE, 0.08)
    assert tally.pr() == pytest.approx(500 * 0.12 / 3) == pr(0.12, 3)
    assert tally.pr((Kind.PLAY,)) == pytest.approx(10.0) and tally.uncounted == 1
    assert tally.pr(CUBE_KINDS) == pytest.approx(40.0) and tally.pr((Kind.TAKE,)) == 0.0


def test_review_and_calibration_give_the_same_pr(tmp_path: Path) -> None:
    """The acceptance check of issue 15: one match, judged live and reviewed from its file."""
    setup = Setup(Level.BEGINNER, STYLES[Level.BEGINNER], "2ply", Level.BEGINNER, 3, seed=15)
    report = calibrate_match(setup, 0, make_judge("2ply"))  # match 0 measures seat ZERO
    tally = report.tally
    assert tally.decisions((Kind.PLAY,)) > 10 and tally.decisions(CUBE_KINDS) > 0
    assert tally.pr() > 1.0  # a Beginner errs: the figure is not trivially zero
    path = tmp_path / "match.mat"
    path.write_text(write_mat(match_to_mat(report.events, ("Measured", "Other"))))

    result = runner.invoke(app, ["analyze", str(path), "--level", "2ply", "--json"])
    assert result.exit_code == 0, result.output
    mine = json.loads(result.stdout)["totals"][0]
    assert mine["name"] == "Measured"
    assert mine["checker_decisions"] == tally.decisions((Kind.PLAY,))
    assert mine["cube_decisions"] == tally.decisions(CUBE_KINDS)
    assert mine["equity_lost"] == pytest.approx(tally.equity_lost(), abs=1e-9)
    assert mine["pr"] == pytest.approx(tally.pr(), abs=1e-9)
    assert mine["checker_pr"] == pytest.approx(tally.pr((Kind.PLAY,)), abs=1e-9)
    assert mine["cube_pr"] == pytest.approx(tally.pr(CUBE_KINDS), abs=1e-9)


def test_a_race_judged_at_2ply_is_ranked_at_3ply() -> None:
    """The money duel's 4-3 where bgsage's 2ply ranks first a play that leaves three checkers to
    be backgammoned (``tests/engine/test_expert_misses.py``): a review and a calibration at
    ``2ply`` charge that play a gammon's worth and the saving play nothing; judged by the 2ply
    engine alone (``bidak-judging-1``), the saving play was the error."""
    from bidak.engine.hints import shared_evaluator
    from bidak.engine.judging import Judge
    from bidak.match import decider
    from bidak.rules import legal_plays
    from tests.engine.test_expert_misses import RACE_MISSES, state_of

    record = RACE_MISSES[0]
    state = state_of(record)
    player = decider(state)
    assert player is not None and state.dice is not None and state.position.is_race()
    plays = {play.result.position_id: play for play in legal_plays(state.position, state.dice)}
    saving, thrown = plays[record["gnubg"]], plays[record["expert"]]
    judge = make_judge("2ply")  # Judge.at, as reviews build theirs
    charged = judge.play(state, player, thrown)
    assert charged.loss > 0.4 and charged.best.result == saving.result
    assert judge.play(state, player, saving).loss == 0.0
    before = Judge(shared_evaluator("2ply"), shared_evaluator("1ply"))
    assert before.play(state, player, thrown).loss == 0.0
    assert before.play(state, player, saving).loss > 0.0
