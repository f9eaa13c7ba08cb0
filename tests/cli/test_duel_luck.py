"""Luck-adjusted duel results (:mod:`bidak.bench.duel_luck`): each game's luck taken off the
points keeps their expectation and takes most of the dice's noise away."""

from __future__ import annotations

import json
import statistics
from dataclasses import asdict
from pathlib import Path

import pytest

from bidak.bench.duel_luck import game_luck, luck_evaluator, match_luck
from bidak.bench.gnubg_duel import PairResult, Settings, read_results, summarise
from bidak.engine.bots import make_bot
from bidak.engine.duel import play, points_for
from bidak.engine.levels import QUICK, Level
from bidak.match import Player, RuleSet, SeededDice

SETTINGS = Settings(level="expert", ply=0, seed=5, judge_ply=0)
RULES = RuleSet(length=25, cube=False)


def _pair(index: int) -> tuple[float, float]:
    """A duplicate pair of cubeless games, the engine's 1-ply best against a noisy Normal:
    the first side's mean points and its mean luck."""
    points = luck = 0.0
    for seat in (Player.ZERO, Player.ONE):
        best = make_bot(Level.NORMAL, f"best:{index}:{seat.value}", style=QUICK)
        noisy = make_bot(Level.NORMAL, f"noisy:{index}:{seat.value}")
        bots = (best, noisy) if seat is Player.ZERO else (noisy, best)
        played = play(bots, RULES, SeededDice(f"luck:{index}"), games=1)
        points += points_for(played.games[0], seat)
        mine = game_luck(played.events, seat, luck_evaluator())
        if seat is Player.ZERO:  # one side's luck is the other's loss
            assert game_luck(played.events, Player.ONE, luck_evaluator()) == pytest.approx(-mine)
        luck += mine
    return points / 2, luck / 2


def test_taking_each_games_luck_off_leaves_a_fraction_of_the_spread() -> None:
    pairs = [_pair(index) for index in range(8)]
    raw = [points for points, _ in pairs]
    adjusted = [points - luck for points, luck in pairs]
    # Measured on 60 such pairs: a spread of 0.88 points a pair, 0.22 adjusted.
    assert statistics.stdev(adjusted) < statistics.stdev(raw) / 2
    # Luck is charged, not invented: a game's luck is at most a few points.
    assert all(abs(luck) < 4 for _, luck in pairs)


def test_a_matchs_luck_in_match_winning_chances_takes_away_much_of_its_spread() -> None:
    raw: list[float] = []
    adjusted: list[float] = []
    for index in range(6):
        won = luck = 0.0
        for seat in (Player.ZERO, Player.ONE):
            best = make_bot(Level.NORMAL, f"best:{index}:{seat.value}", style=QUICK)
            noisy = make_bot(Level.NORMAL, f"noisy:{index}:{seat.value}")
            bots = (best, noisy) if seat is Player.ZERO else (noisy, best)
            played = play(bots, RuleSet(length=3), SeededDice(f"luck:{index}"))
            won += played.state.winner is seat
            mine = match_luck(played.events, seat, luck_evaluator())
            if index == 0:  # one side's luck is the other's loss
                theirs = match_luck(played.events, seat.opponent, luck_evaluator())
                assert theirs == pytest.approx(-mine)
            assert -1 < mine < 1  # chances of winning the match, not points
            luck += mine
        raw.append(won / 2)
        adjusted.append((won - luck) / 2)
    # Measured on 30 such pairs of 3-point matches: a spread of 0.40 a pair, 0.16 adjusted.
    assert statistics.stdev(adjusted) < 0.7 * statistics.stdev(raw)


def test_the_summary_adjusts_the_pairs_that_recorded_their_luck(tmp_path: Path) -> None:
    ledger: dict[str, dict[str, float]] = {}
    results = [
        PairResult(0, 1.0, ledger, luck=0.75),
        PairResult(1, -1.5, ledger, luck=-1.25),
        PairResult(2, 0.5, ledger, luck=0.5),
        PairResult(3, 2.0, ledger),  # stored before luck was recorded
    ]
    summary = summarise(SETTINGS, results)
    assert summary.pairs == 4 and summary.mean == pytest.approx(0.5)
    assert summary.adjusted is not None
    count, mean, half = summary.adjusted
    assert count == 3 and mean == pytest.approx((0.25 - 0.25 + 0.0) / 3)
    assert half == pytest.approx(1.96 * statistics.stdev([0.25, -0.25, 0.0]) / 3**0.5)
    assert summarise(SETTINGS, results[3:]).adjusted is None
    # A results file written before luck was recorded reads back, its pairs without luck.
    out = tmp_path / "duel.jsonl"
    old = {"index": 0, "points": 1.0, "ledger": {}, "margin": 0.0}
    out.write_text(json.dumps({"settings": asdict(SETTINGS)}) + "\n" + json.dumps(old) + "\n")
    assert read_results(out, SETTINGS) == [PairResult(0, 1.0, {})]
