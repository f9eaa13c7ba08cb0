"""``bidak bench ...``: benchmarks that print a table next to a reference from the same run."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

app = typer.Typer(help="Benchmarks, each next to a reference measured in the same run.")
console = Console()


@app.command("rules")
def rules(
    count: Annotated[int, typer.Option(help="how many positions (at least)")] = 5000,
    seed: Annotated[int, typer.Option(help="seed of the sample games")] = 2026,
    repeat: Annotated[int, typer.Option(help="timings per position; the best is kept")] = 3,
) -> None:
    """Legal-play enumeration per position: median, p90 and p99 microseconds, vs bgsage."""
    from bidak.bench.rules import describe_sample, run_benchmark

    facts = describe_sample(count, seed)
    console.print(
        "sample: "
        + ", ".join(f"{value} {name}" for name, value in facts.items())
        + f" (seed {seed}, best of {repeat})"
    )
    timings = run_benchmark(count, seed, repeat)
    reference = timings[-1]
    table = Table("implementation", "median µs", "p90 µs", "p99 µs", "median vs bgsage")
    for timing in timings:
        table.add_row(
            timing.name,
            f"{timing.median:.1f}",
            f"{timing.quantile(0.90):.1f}",
            f"{timing.quantile(0.99):.1f}",
            f"{timing.median / reference.median:.2f}x",
        )
    console.print(table)
