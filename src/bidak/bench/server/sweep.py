"""A sweep of match counts (``bidak bench server --sweep``): each count run (``--repeat``
times, a fresh server each), a row a run, and the largest count carried."""

from __future__ import annotations

import os
from collections.abc import Callable

from rich.table import Table

from bidak.bench.server.measure import Result
from bidak.bench.server.report import capacity, carried_rule, sweep_table


def run_sweep(
    counts: list[int],
    measured: Callable[[int], list[Result]],
    *,
    capped: bool = False,
    repeat: int = 1,
    show: Callable[[Table | str], None],
) -> int | None:
    """Bidak and the relay at each count, ``repeat`` times (``measured`` starts a fresh server
    each time), each row shown as it comes and all of them at the end; the largest count
    carried (by every one of its runs)."""
    rows: list[tuple[int, Result, Result]] = []
    for count in counts:
        for _ in range(repeat):
            bidak, relay = measured(count)
            rows.append((count, bidak, relay))
            show(sweep_table(rows[-1:], capped))
    show(sweep_table(rows, capped))
    carried = capacity([(count, bidak) for count, bidak, _ in rows], capped=capped)
    relay_carried = capacity([(count, relay) for count, _, relay in rows], capped=capped)
    load = ", ".join(f"{figure:.2f}" for figure in os.getloadavg())
    runs = "" if repeat == 1 else f", {repeat} runs each"
    show(
        f"largest count with {carried_rule(capped)}: bidak {carried or 'none'},"
        f" bare relay {relay_carried or 'none'} (of {', '.join(map(str, counts))}{runs});"
        f" load average now {load}"
    )
    return carried
