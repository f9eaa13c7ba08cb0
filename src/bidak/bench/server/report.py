"""The table ``bidak bench server`` prints: one column per server, the reference next to Bidak."""

from __future__ import annotations

import math
from collections.abc import Callable

from rich.table import Table

from bidak.bench.server.measure import Result


def quantile(values: list[float], q: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _pairing(result: Result, q: float) -> str:
    if not result.tally.pairing_ms:
        return "-"
    return f"{quantile(result.tally.pairing_ms, q):.1f}"


def _ms(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1000:.0f}"


def results_table(results: list[Result]) -> Table:
    """One column per server, so the reference stands next to Bidak."""
    table = Table("", *(result.name for result in results), title="bidak bench server")
    rows: list[tuple[str, Callable[[Result], str]]] = [
        ("matches (clients)", lambda r: f"{r.load.matches} ({2 * r.load.matches})"),
        ("think time", lambda r: str(r.load.think)),
        ("actions", lambda r: str(r.tally.actions)),
        ("actions/s", lambda r: f"{r.tally.actions / r.load.duration:.1f}"),
        ("p50 ms, actor", lambda r: f"{quantile(r.tally.actor_ms, 0.50):.1f}"),
        ("p99 ms, actor", lambda r: f"{quantile(r.tally.actor_ms, 0.99):.1f}"),
        ("p50 ms, opponent", lambda r: f"{quantile(r.tally.opponent_ms, 0.50):.1f}"),
        ("p99 ms, opponent", lambda r: f"{quantile(r.tally.opponent_ms, 0.99):.1f}"),
        ("errors", lambda r: str(sum(r.tally.errors.values()))),
        ("pairing p50 ms", lambda r: _pairing(r, 0.50)),
        ("pairing p99 ms", lambda r: _pairing(r, 0.99)),
        ("longest loop stall ms", lambda r: _ms(r.loop_stall)),
        ("longest collection ms", lambda r: _ms(r.collection)),
        ("matches finished", lambda r: str(r.tally.finished) if r.load.kind == "bidak" else "-"),
        ("mean message bytes", lambda r: str(r.mean_message_bytes)),
        (
            "server CPU (1 core = 100%)",
            lambda r: "-" if r.server_cpu is None else f"{r.server_cpu:.0%}",
        ),
        ("load generator CPU", lambda r: f"{r.tally.cpu_seconds / r.load.duration:.0%}"),
    ]
    for label, cell in rows:
        table.add_row(label, *(cell(result) for result in results))
    return table
