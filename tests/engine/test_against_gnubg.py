"""Bidak's PR against GNU Backgammon's own analysis of matches gnubg played.

``data/gnubg/`` holds matches gnubg 1.07 played against itself at its named levels
(``scripts/gnubg_matches.py`` made them) and gnubg's analysis of each at 2-ply: ``gnubg.json``
has its figures, ``NAME.gnubg.txt`` its own statistics text. Reviewed by Bidak at ``3ply`` (the
same depth), a player's PR should land within 20% of gnubg's error rate per decision (mEMG) / 2.
Every Beginner, Intermediate and Advanced figure does; of the five near-perfect Experts (PR 1 to
2, where a handful of decisions make the figure) three do and two land 43-45% above: they are
strict expected failures in ``MISSES``, explained in docs/analysis.md. A gnubg ``worldclass``
player plays at 2-ply and gnubg's 2-ply analysis keeps its own evaluations, so gnubg gives it
0.0 by construction; Bidak, another engine, only has to find it near-perfect.
"""

from __future__ import annotations

import concurrent.futures
import functools
import json
import os
from pathlib import Path
from typing import Any

import pytest

from bidak.engine.review import MatchReview, review_mat

DATA = Path(__file__).parent / "data" / "gnubg"
FIGURES: dict[str, Any] = json.loads((DATA / "gnubg.json").read_text())
BAND = 0.20


def gnubg_pr(player: dict[str, float]) -> float:
    """gnubg's error rate per decision / 2, from its totals (more digits than its rate line)."""
    decisions = player["unforced_moves"] + player["close_cube_decisions"]
    return 500 * player["overall_error_total_emg"] / decisions


def test_the_data_is_gnubgs_own() -> None:
    assert len(FIGURES) >= 4
    for name, match in FIGURES.items():
        assert (DATA / f"{name}.mat").exists() and (DATA / f"{name}.gnubg.txt").exists()
        for player in match["analysis"]["2-ply"]:
            # The figure gnubg prints is the same ratio (to its one decimal).
            printed = player["overall_error_rate_memg"] / 2
            assert gnubg_pr(player) == pytest.approx(printed, abs=0.06)


# Where Bidak's engine and gnubg's disagree enough on a few plays to leave the band; each is
# explained in docs/analysis.md. Strict: if the figures come to agree, the test says so.
MISSES: dict[tuple[str, int], str] = {
    ("expert-expert", 1): "PR 2.79 vs 1.93: three plays gnubg calls right cost 0.03-0.05 to Bidak",
    ("expert-worldclass", 0): "PR 1.32 vs 0.93: Bidak's engine finds more fault in gnubg's plays",
}


SMOKE = "intermediate-expert"
"""The match every run of the suite reviews: the shortest (66 decisions, a seventh of the five's),
so a change that moves Bidak's figures away from gnubg's fails in every CI run. The other four
are ``slow`` (deselected by default; ``pytest -m slow tests/engine/test_against_gnubg.py`` runs
them, about five minutes of both cores: docs/analysis.md)."""


def _review(name: str) -> MatchReview:
    return review_mat((DATA / f"{name}.mat").read_text(), "3ply")


@functools.cache
def reviews() -> dict[str, MatchReview]:
    """Every match but the smoke one reviewed at 3ply, on as many threads as cores (the
    engine's N-ply search runs outside the GIL): about a minute a match."""
    names = sorted(set(FIGURES) - {SMOKE})
    workers = max(1, min(len(names), os.cpu_count() or 1))
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        return dict(zip(names, pool.map(_review, names), strict=True))


@functools.cache
def review_of(name: str) -> MatchReview:
    return _review(name) if name == SMOKE else reviews()[name]


def players() -> list[Any]:
    found = []
    for name in sorted(FIGURES):
        for seat in (0, 1):
            reason = MISSES.get((name, seat))
            marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
            if name != SMOKE:
                marks.append(pytest.mark.slow)
            found.append(pytest.param(name, seat, id=f"{name}:{seat}", marks=marks))
    return found


@pytest.mark.parametrize(("name", "seat"), players())
def test_bidak_pr_lands_within_20_percent_of_gnubgs(name: str, seat: int) -> None:
    match = FIGURES[name]
    totals = review_of(name).totals[seat]
    gnubg = match["analysis"]["2-ply"][seat]
    # The same unforced moves; close cube decisions may differ with the engines' opinions.
    assert totals.checker_decisions == gnubg["unforced_moves"]
    target = gnubg_pr(gnubg)
    if match["levels"][seat] == "worldclass":
        assert target == 0.0 and totals.pr < 1.5, totals.pr
        return
    assert abs(totals.pr - target) <= BAND * target, (totals.pr, target)
