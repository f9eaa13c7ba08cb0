"""Bidak's PR against GNU Backgammon's own analysis of matches gnubg played.

``data/gnubg/`` holds matches gnubg 1.07 played against itself at its named levels
(``scripts/gnubg_matches.py`` made them) and gnubg's analysis of each at 2-ply: ``gnubg.json``
has its figures, ``NAME.gnubg.txt`` its own statistics text. Reviewed by Bidak at ``3ply`` (the
same depth), each player's PR lands within 20% of gnubg's error rate per decision (mEMG) / 2,
the near-perfect Experts (PR 1 to 2, where a few cube decisions weigh) included. A gnubg
``worldclass`` player plays at 2-ply and gnubg's 2-ply analysis keeps its own evaluations, so
gnubg gives it 0.0 by construction; Bidak, another engine, only has to find it near-perfect.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bidak.engine.review import review_mat

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


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(FIGURES))
def test_bidak_pr_lands_within_20_percent_of_gnubgs(name: str) -> None:
    match = FIGURES[name]
    review = review_mat((DATA / f"{name}.mat").read_text(), "3ply")
    for seat, totals in enumerate(review.totals):
        gnubg = match["analysis"]["2-ply"][seat]
        level = match["levels"][seat]
        # The same unforced moves; close cube decisions may differ by the engines' opinions.
        assert totals.checker_decisions == gnubg["unforced_moves"], (name, seat)
        target = gnubg_pr(gnubg)
        if level == "worldclass":
            assert target == 0.0 and totals.pr < 1.5, (name, seat, totals.pr)
            continue
        assert abs(totals.pr - target) <= BAND * target, (name, level, totals.pr, target)
