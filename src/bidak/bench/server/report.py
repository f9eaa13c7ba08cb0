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


def cpu_per_action(result: Result) -> float | None:
    """The server's CPU an action in the window, in seconds (None: not measured)."""
    if result.server_cpu is None or not result.tally.actions:
        return None
    return result.server_cpu * result.load.duration / result.tally.actions


def _cpu_per_action(result: Result, reference: Result | None) -> str:
    """The CPU an action in ms, and for a server beside the reference how many times its."""
    mine = cpu_per_action(result)
    if mine is None:
        return "-"
    theirs = None if reference is None or reference is result else cpu_per_action(reference)
    ratio = "" if not theirs else f" ({mine / theirs:.1f}x)"
    return f"{mine * 1000:.3f}{ratio}"


def _kernel_share(result: Result) -> str:
    """How much of the server's CPU was the kernel's (syncs, sockets): where runs spread."""
    if result.kernel is None or not result.server_cpu:
        return "-"
    return f"{result.kernel / result.server_cpu:.0%}"


def results_table(results: list[Result]) -> Table:
    """One column per server, so the reference stands next to Bidak."""
    table = Table("", *(result.name for result in results), title="bidak bench server")
    reference = next((result for result in results if result.load.kind != "bidak"), None)
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
        ("CPU an action ms (x relay)", lambda r: _cpu_per_action(r, reference)),
        ("of it in the kernel", _kernel_share),
        ("load generator CPU", lambda r: f"{r.tally.cpu_seconds / r.load.duration:.0%}"),
    ]
    for label, cell in rows:
        table.add_row(label, *(cell(result) for result in results))
    return table


CAPACITY_P99_MS = 100.0
"""The latency a crowd may see at most for a match count to count as carried (issue 22)."""


def worst_p99(result: Result) -> float:
    """The larger of the actor's and the opponent's p99, in ms (NaN: nothing was timed)."""
    return max(quantile(result.tally.actor_ms, 0.99), quantile(result.tally.opponent_ms, 0.99))


CAPPED_P99_MS = 50.0
CAPPED_STALL_MS = 100.0
"""Under a CPU cap (issue 41) a count is carried with p99 ≤ 50 ms and no loop stall over 100 ms."""


def carried_rule(capped: bool) -> str:
    if capped:
        return f"p99 ≤ {CAPPED_P99_MS:.0f} ms and no stall over {CAPPED_STALL_MS:.0f} ms"
    return f"p99 ≤ {CAPACITY_P99_MS:.0f} ms"


def run_carried(result: Result, bound_ms: float, capped: bool) -> bool:
    """Whether one run kept its p99 within ``bound_ms`` with no errors (and, under a cap, no
    loop stall over 100 ms)."""
    p99 = worst_p99(result)
    if math.isnan(p99) or p99 > bound_ms or any(result.tally.errors.values()):
        return False
    stall = result.loop_stall
    return not (capped and stall is not None and stall * 1000 > CAPPED_STALL_MS)


def capacity(
    rows: list[tuple[int, Result]], bound_ms: float | None = None, *, capped: bool = False
) -> int | None:
    """The largest match count whose runs kept p99 within ``bound_ms`` (by default 100 ms, 50 ms
    under a cap, where a loop stall over 100 ms also fails) with no errors, when every smaller
    count measured kept it too (a count past the first failure does not count: the machine was
    luckier, not the server better); None when the smallest did not. A count run several times
    (``--repeat``) is carried only when every one of its runs was: near the edge one stall or
    burst in a run's window decides it, so one lucky run does not."""
    bound = bound_ms if bound_ms is not None else CAPPED_P99_MS if capped else CAPACITY_P99_MS
    runs: dict[int, list[Result]] = {}
    for matches, result in rows:
        runs.setdefault(matches, []).append(result)
    found = None
    for matches in sorted(runs):
        if not all(run_carried(result, bound, capped) for result in runs[matches]):
            break
        found = matches
    return found


def efficiency(carried: dict[int, int | None]) -> dict[int, float | None]:
    """capacity(k) / (k x capacity(1)) for each process count k (None: not measurable)."""
    one = carried.get(1)
    return {
        k: None if one is None or count is None else count / (k * one)
        for k, count in carried.items()
    }


def scaling_table(carried: dict[int, int | None], cap_cores: float | None) -> Table:
    """Capacity per process count at the same cap, and the scaling efficiency."""
    cap = "no cap" if cap_cores is None else f"each process capped at {cap_cores:g} core"
    table = Table("server processes", "capacity (matches)", "efficiency", title=f"scaling ({cap})")
    for k, share in sorted(efficiency(carried).items()):
        count = carried[k]
        table.add_row(
            str(k),
            "none" if count is None else str(count),
            "-" if share is None else f"{share:.2f}",
        )
    return table


def sweep_table(rows: list[tuple[int, Result, Result]], capped: bool = False) -> Table:
    """One row per match count: Bidak's figures next to the relay's at the same count."""
    table = Table(
        "matches",
        "actions/s",
        "p50 ms",
        "p99 ms",
        "relay p99 ms",
        "loop stall ms",
        "server CPU",
        "relay CPU",
        "errors",
        "throttled s",
        title=f"bidak bench server --sweep (carried: {carried_rule(capped)})",
    )
    for matches, bidak, relay in rows:
        table.add_row(
            str(matches),
            f"{bidak.tally.actions / bidak.load.duration:.1f}",
            f"{quantile(bidak.tally.opponent_ms, 0.50):.1f}",
            f"{worst_p99(bidak):.1f}",
            f"{worst_p99(relay):.1f}",
            _ms(bidak.loop_stall),
            "-" if bidak.server_cpu is None else f"{bidak.server_cpu:.0%}",
            "-" if relay.server_cpu is None else f"{relay.server_cpu:.0%}",
            str(sum(bidak.tally.errors.values())),
            "-" if bidak.throttled is None else f"{bidak.throttled:.1f}",
        )
    return table
