"""``bidak bench bots --against gnubg``: the duel's bookkeeping (points per game of duplicate
pairs with a 95% CI, a results file that resumes and refuses another run's settings), and a
seeded pair played for real against GNU Backgammon where the optional ``gnubg`` package is
installed (``pip install -e '.[bench]'``; skipped without it)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from bidak.bench.gnubg_duel import (
    PHASES,
    GnubgProcess,
    Ledger,
    PairResult,
    Settings,
    gnubg_available,
    phase_of,
    play_pair,
    read_results,
    run_duel,
    summarise,
)
from bidak.rules import Position

SETTINGS = Settings(level="expert", ply=0, seed=5, judge_ply=0)


def _result(index: int, points: float) -> PairResult:
    ledger = Ledger()
    ledger.decisions["contact"] = 10
    ledger.disagreed["contact"] = 2
    ledger.bidak_lost["contact"] = 0.25
    return PairResult(
        index,
        points,
        {
            "decisions": dict(ledger.decisions),
            "disagreed": dict(ledger.disagreed),
            "bidak_lost": dict(ledger.bidak_lost),
            "gnubg_lost": dict(ledger.gnubg_lost),
        },
    )


def test_the_summary_is_the_mean_of_the_pairs_with_a_normal_95_percent_interval() -> None:
    points = [1.0, -0.5, 0.0, 1.5, -1.0, 0.5]
    summary = summarise(SETTINGS, [_result(i, p) for i, p in enumerate(points)])
    mean = sum(points) / len(points)
    spread = math.sqrt(sum((p - mean) ** 2 for p in points) / (len(points) - 1))
    assert summary.pairs == 6 and summary.mean == pytest.approx(mean)
    assert summary.half_width == pytest.approx(1.96 * spread / math.sqrt(6))
    assert summary.low < mean < summary.high
    assert summary.ledger.decisions["contact"] == 60 and summary.ledger.disagreed["contact"] == 12
    assert summary.ledger.bidak_lost["contact"] == pytest.approx(1.5)
    assert summarise(SETTINGS, [_result(0, 1.0)]).half_width == math.inf


def test_a_results_file_resumes_its_own_run_and_refuses_another(tmp_path: Path) -> None:
    out = tmp_path / "duel.jsonl"
    lines = [{"settings": {"level": "expert", "ply": 0, "seed": 5, "judge_ply": 0}}]
    lines += [
        {"index": r.index, "points": r.points, "ledger": r.ledger}
        for r in (_result(0, 1.0), _result(1, -0.5))
    ]
    out.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert [r.index for r in read_results(out, SETTINGS)] == [0, 1]
    # Both pairs asked for are there: nothing is played, the summary is theirs.
    summary = run_duel(SETTINGS, 2, out, workers=1)
    assert summary.pairs == 2 and summary.mean == pytest.approx(0.25)
    assert len(out.read_text().splitlines()) == 3
    other = Settings(level="normal", ply=0, seed=5, judge_ply=0)
    with pytest.raises(ValueError, match="other settings"):
        read_results(out, other)


def test_the_phases_of_a_game() -> None:
    assert phase_of(Position.initial()) == "contact"
    race = Position.from_counts({9: 5, 6: 10}, {9: 15})
    assert race.is_race() and phase_of(race) == "race"
    assert phase_of(Position.from_counts({6: 5, 1: 10}, {9: 15})) == "bear-off"
    assert set(PHASES) == {"contact", "race", "bear-off"}


needs_gnubg = pytest.mark.skipif(
    not gnubg_available(), reason="gnubg is not installed (pip install -e '.[bench]')"
)


@needs_gnubg
def test_a_seeded_pair_against_gnubg_plays_both_seats_and_repeats_exactly() -> None:
    gnubg = GnubgProcess()
    try:
        first = play_pair(SETTINGS, 3, gnubg)
        again = play_pair(SETTINGS, 3, gnubg)
    finally:
        gnubg.close()
    assert first == again  # the same dice, the same bots: the same pair
    assert first.points * 2 in {-6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6}
    assert sum(first.ledger["decisions"].values()) > 20
    for phase in PHASES:
        assert first.ledger["disagreed"][phase] <= first.ledger["decisions"][phase]
        assert first.ledger["bidak_lost"][phase] >= 0 and first.ledger["gnubg_lost"][phase] >= 0
