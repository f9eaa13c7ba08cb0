"""The fair-play signal on our own bots and a simulated population (docs/fair-play.md).

    .venv/bin/python scripts/fairplay_population.py --windows 2000 --out artifacts/fair-play.md

No engine runs here: the figures of real matches are reused. ``calibration/<level>.json`` holds,
for every match the calibration played (seven points, each level against itself, judged one ply
deeper than it plays: 2ply for Beginner and Normal, 3ply for Expert), the counted decisions, the
equity lost and the sum of the squared losses, both seats together (a player's share is taken
as half of each). A window is ``WINDOW`` matches drawn at random
(with replacement) from one level's matches; each decision gets a think time:

- *people's times*: log-normal, median 6 s, sigma 0.8 (coefficient of variation 0.95);
- *a steady delay*: normal, mean 8 s, SD 1 s (CV 0.12), what a relay to an engine looks like.

The simulated population: each person's PR is drawn from the human reference (``HUMAN``, the
log-normal through its 95% range 1.52-9.36), and each of their matches is a Normal-bot match
scaled to it (its losses x k, squares x k^2, k = the person's PR / the Normal level's PR), so the
match-to-match spread and the skew of the errors are those of real play. A person of PR 2.0 is
simulated the same way, from Normal's matches and, more harshly, from Expert's (whose errors are
relatively more spread out). The analytic estimate beside it takes the window's PR as normal with
the standard error of its decisions.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections.abc import Callable
from pathlib import Path

from bidak.fairplay import (
    HUMAN,
    MIN_DECISIONS,
    STEADY_BONUS,
    THRESHOLD,
    WINDOW,
    Z_BOUND,
    MatchFigures,
    judge,
)

ROOT = Path(__file__).resolve().parents[1]
Times = Callable[[random.Random, int], list[float]]


def people(rng: random.Random, n: int) -> list[float]:
    return [rng.lognormvariate(math.log(6.0), 0.8) for _ in range(n)]


def steady(rng: random.Random, n: int) -> list[float]:
    return [max(0.5, rng.gauss(8.0, 1.0)) for _ in range(n)]


def matches_of(level: str) -> list[tuple[int, float, float]]:
    """One player's figures per match. The calibration measured both seats of a match together
    (the level plays itself), so each match counts as two players' halves of it: half the
    decisions, half the loss and half the squares, the same PR and spread per decision."""
    data = json.loads((ROOT / "calibration" / f"{level}.json").read_text("utf-8"))
    return [
        (sum(m["count"].values()) // 2, sum(m["loss"].values()) / 2, float(m["squares"]) / 2)
        for m in data["matches"]
    ]


def level_pr(matches: list[tuple[int, float, float]]) -> float:
    return 500 * sum(m[1] for m in matches) / sum(m[0] for m in matches)


def window(
    rng: random.Random, pool: list[tuple[int, float, float]], times: Times, scale: float = 1.0
) -> list[MatchFigures]:
    chosen = []
    for _ in range(WINDOW):
        n, loss, squares = rng.choice(pool)
        seconds = times(rng, n)
        chosen.append(
            MatchFigures(
                n,
                loss * scale,
                squares * scale * scale,
                n,
                sum(seconds),
                sum(s * s for s in seconds),
            )
        )
    return chosen


def flagged_share(windows: int, make: Callable[[], list[MatchFigures]]) -> tuple[float, float]:
    """The share of flagged windows and the mean PR of the windows."""
    flags, prs = 0, 0.0
    for _ in range(windows):
        signal = judge(make())
        flags += signal.flagged
        prs += signal.pr
    return flags / windows, prs / windows


def person_pr(rng: random.Random) -> float:
    return math.exp(rng.gauss(HUMAN.mu, HUMAN.sigma))


def analytic(pr: float, relative_sd: float, decisions: int, threshold: float) -> float:
    """P(PR_window + Z_BOUND SE < threshold) for a true ``pr`` whose per-decision losses have SD
    ``relative_sd`` x their mean, over ``decisions`` decisions (normal approximation)."""
    se = relative_sd * pr / math.sqrt(decisions)
    # bound < threshold  <=>  observed < threshold - Z_BOUND * se (se taken at the true PR)
    z = (threshold - Z_BOUND * se - pr) / se
    return 0.5 * math.erfc(-z / math.sqrt(2))


def relative_sd(pool: list[tuple[int, float, float]]) -> float:
    n = sum(m[0] for m in pool)
    mean = sum(m[1] for m in pool) / n
    return math.sqrt(sum(m[2] for m in pool) / n - mean * mean) / mean


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--windows", type=int, default=2000, help="windows per row")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=ROOT / "artifacts" / "fair-play.md")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    pools = {level: matches_of(level) for level in ("beginner", "normal", "expert")}
    normal_pr = level_pr(pools["normal"])
    expert_pr = level_pr(pools["expert"])
    rows: list[tuple[str, float, float]] = []

    def row(name: str, make: Callable[[], list[MatchFigures]]) -> None:
        share, mean = flagged_share(args.windows, make)
        rows.append((name, mean, share))
        print(f"{name}: {100 * share:.2f}% flagged, mean window PR {mean:.2f}", flush=True)

    for level in ("expert", "normal", "beginner"):
        pool = pools[level]
        row(f"{level} bot, people's times", lambda pool=pool: window(rng, pool, people))
    row("expert bot, a steady delay", lambda: window(rng, pools["expert"], steady))
    mixed = pools["beginner"] + pools["normal"]
    row("a mixed Beginner/Normal population, people's times", lambda: window(rng, mixed, people))
    row("a mixed Beginner/Normal population, a steady delay", lambda: window(rng, mixed, steady))
    row(
        "people (PR from the reference), people's times",
        lambda: window(rng, pools["normal"], people, person_pr(rng) / normal_pr),
    )
    row(
        "people (PR from the reference), a steady delay",
        lambda: window(rng, pools["normal"], steady, person_pr(rng) / normal_pr),
    )
    for name, pool, base in (
        ("Normal", pools["normal"], normal_pr),
        ("Expert", pools["expert"], expert_pr),
    ):
        for times, label in ((people, "people's times"), (steady, "a steady delay")):
            row(
                f"a person of PR 2.0 ({name}'s error shape), {label}",
                lambda pool=pool, base=base, times=times: window(rng, pool, times, 2.0 / base),
            )
    decisions = [sum(m[0] for m in pool) / len(pool) * WINDOW for pool in pools.values()]
    lines = [
        f"Windows of {WINDOW} matches, {args.windows} windows a row, seed {args.seed}"
        f" (scripts/fairplay_population.py). Threshold {THRESHOLD}"
        f" (up to {THRESHOLD + STEADY_BONUS:.1f} with steady times), bound = PR + {Z_BOUND} SE,"
        f" at least {MIN_DECISIONS} decisions.",
        "",
        "| who | mean window PR | windows flagged |",
        "| --- | --- | --- |",
        *(f"| {name} | {mean:.2f} | {100 * share:.2f}% |" for name, mean, share in rows),
        "",
        "Analytic estimate (normal approximation), a person of PR 2.0 over a window of"
        f" {MIN_DECISIONS} and of {round(decisions[1])} decisions:",
        "",
        "| error shape (SD / mean per decision) | times | 300 decisions | a 7-point window |",
        "| --- | --- | --- | --- |",
    ]
    for name, pool in (("Normal", pools["normal"]), ("Expert", pools["expert"])):
        spread = relative_sd(pool)
        for threshold, label in ((THRESHOLD, "people's"), (THRESHOLD + STEADY_BONUS, "steady")):
            few = analytic(2.0, spread, MIN_DECISIONS, threshold)
            many = analytic(2.0, spread, round(decisions[1]), threshold)
            lines.append(f"| {name} ({spread:.2f}) | {label} | {few:.1e} | {many:.1e} |")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
