"""``bidak bench rules``: how fast Bidak enumerates legal plays, next to bgsage in the same run.

Both sides are timed per position on the same seeded sample. The reference row is bgsage with
its boards turned into Bidak positions, since that is what using it as the referee would cost;
a middle row shows bgsage's raw boards alone, without that conversion.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from bidak.bench.games import sample_positions
from bidak.rules import Position, legal_plays


@dataclass(frozen=True)
class Timing:
    name: str
    samples_us: list[float]

    @property
    def median(self) -> float:
        return statistics.median(self.samples_us)

    def quantile(self, q: float) -> float:
        ordered = sorted(self.samples_us)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _time_each(
    sample: list[tuple[Position, tuple[int, int]]],
    run: Callable[[Position, tuple[int, int]], object],
    repeat: int,
) -> list[float]:
    clock = time.perf_counter
    times: list[float] = []
    for position, dice in sample:
        best = float("inf")
        for _ in range(repeat):
            start = clock()
            run(position, dice)
            best = min(best, clock() - start)
        times.append(best * 1e6)
    return times


def run_benchmark(count: int = 5000, seed: int = 2026, repeat: int = 3) -> list[Timing]:
    """Time Bidak's ``legal_plays`` and bgsage's ``possible_moves`` on the same sample."""
    from bidak.engine.sage import possible_boards, possible_results

    sample = sample_positions(count, seed)
    timings = [Timing("bidak.rules.legal_plays", _time_each(sample, legal_plays, repeat))]
    timings.append(
        Timing("bgsage boards only (no Position)", _time_each(sample, possible_boards, repeat))
    )
    timings.append(Timing("bgsage.possible_moves", _time_each(sample, possible_results, repeat)))
    return timings


def describe_sample(count: int = 5000, seed: int = 2026) -> dict[str, int]:
    sample = sample_positions(count, seed)
    return {
        "positions": len(sample),
        "on the bar": sum(1 for p, _ in sample if p.bar.mover),
        "bearing off": sum(
            1 for p, _ in sample if not p.bar.mover and all(n <= 0 for n in p.points[6:])
        ),
        "doubles": sum(1 for _, d in sample if d[0] == d[1]),
    }
