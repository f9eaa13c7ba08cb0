"""``bidak bench ...``: benchmarks that print a table next to a reference from the same run."""

from __future__ import annotations

import signal
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, cast

import typer
from rich.console import Console
from rich.table import Table

from bidak.cli.errors import friendly

if TYPE_CHECKING:
    from bidak.bench.bots import Contender
    from bidak.bench.server.load import Routing
    from bidak.engine.levels import Level

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


@app.command("bots")
@friendly
def bots(
    states: Annotated[int, typer.Option(help="decisions timed per level")] = 150,
    pairs: Annotated[int, typer.Option(help="pairs of games per duel (0: no duels)")] = 20,
    seed: Annotated[int, typer.Option(help="seed of the sample matches and the duel dice")] = 2026,
    length: Annotated[int, typer.Option(help="duel games are the first of such a match")] = 25,
    levels: Annotated[str, typer.Option(help="comma-separated levels")] = "beginner,normal,expert",
    judge: Annotated[
        str,
        typer.Option(
            help="engine level judging the timed decisions for PR (none: skip); "
            "against gnubg: gnubg's ply judging the plays the two disagree on (e.g. 3)"
        ),
    ] = "3ply",
    against: Annotated[
        str | None, typer.Option(help="gnubg: duel --levels (one level) against GNU Backgammon")
    ] = None,
    ply: Annotated[int, typer.Option(min=0, max=4, help="gnubg's ply (2: World Class)")] = 2,
    match_length: Annotated[
        int,
        typer.Option(
            min=0,
            max=25,
            help="against gnubg: pairs of whole cubeful matches of this length, each engine"
            " taking its own cube decisions (0: cubeless money games)",
        ),
    ] = 0,
    out: Annotated[
        Path | None,
        typer.Option(help="results file of the gnubg duel (resumed if it exists)"),
    ] = None,
    style: Annotated[
        str,
        typer.Option(
            help="the level's style changed, field=value pairs such as close=0.02,max_plays=40"
            " (an engine setting other than the level's own): against gnubg, it plays that"
            " style; otherwise the one level is timed and dueled in both styles"
        ),
    ] = "",
) -> None:
    """Decision time and PR per bot level, and duels between the levels (points per game);
    with --against gnubg, a duplicate-dice duel of one level against GNU Backgammon."""
    if (against is not None or style) and levels == "beginner,normal,expert":
        levels = "expert"  # the option's default: the strongest plays gnubg, or is restyled
    if against is not None:
        from bidak.cli.bench_gnubg import against_gnubg

        against_gnubg(
            against,
            level=levels,
            ply=ply,
            pairs=pairs,
            seed=seed,
            judge=judge,
            out=out,
            length=match_length,
            style=style,
        )
        return
    from bidak.bench.bots import Contender, run
    from bidak.engine.hints import check_ply
    from bidak.engine.levels import BadStyle, Level

    judge_ply = None if judge == "none" else check_ply(judge)
    named = [Level.parse(name) for name in levels.split(",") if name.strip()]
    chosen: list[Level | Contender] = list(named)
    if style:
        if len(named) != 1:
            raise typer.BadParameter("name the one level to restyle", param_hint="--levels")
        try:
            chosen.append(Contender.restyled(named[0], style))
        except BadStyle as bad:
            raise typer.BadParameter(str(bad), param_hint="--style") from None
    for table in run(
        states=states,
        pairs=pairs,
        seed=seed,
        length=length,
        levels=chosen,
        judge_ply=judge_ply,
        progress=lambda text: console.print(f"[dim]{text}[/dim]"),
    ):
        console.print(table)


@app.command("arena")
def arena(
    players: Annotated[int, typer.Option(min=4, help="players in the arena")] = 200,
    matches: Annotated[int, typer.Option(min=1, help="matches ended in all")] = 300,
    batch: Annotated[int, typer.Option(min=1, help="matches ended at once")] = 10,
    gap: Annotated[float, typer.Option(min=0.0, help="seconds between two batches")] = 1.0,
    database_url: Annotated[
        str | None, typer.Option(help="e.g. postgresql://... [a SQLite file of its own]")
    ] = None,
) -> None:
    """An arena of many players on one server in this process: after a match ends, how long
    until its players are paired again (the issue's bar: p99 <= 2 s)."""
    import asyncio

    from bidak.bench.arena import quantile, run_arena

    result = asyncio.run(run_arena(players, matches, batch, gap, database_url))
    table = Table(title=f"arena of {result.players} players, {result.ended} matches ended")
    table.add_column("measure")
    table.add_column("value", justify="right")
    waits, ticks = result.waits, result.ticks
    table.add_row("paired again", str(len(waits)))
    table.add_row("not paired again (only their last opponent free)", str(result.unpaired))
    for label, q in (("p50", 0.5), ("p99", 0.99), ("max", 1.0)):
        table.add_row(f"{label} s, match end to next pairing", f"{quantile(waits, q):.3f}")
    table.add_row("ticks", str(len(ticks)))
    for label, q in (("p50", 0.5), ("p99", 0.99)):
        table.add_row(
            f"{label} ms, one tick (results, pairing, rooms)", f"{1000 * quantile(ticks, q):.1f}"
        )
    console.print(table)


@app.command("server")
def server(
    matches: Annotated[int, typer.Option(help="concurrent friend matches (two clients each)")] = 50,
    duration: Annotated[
        float, typer.Option(help="seconds measured, after every match is set up")
    ] = 20.0,
    think: Annotated[
        str, typer.Option(help="seconds a client thinks before acting: LOW-HIGH, e.g. 2-5")
    ] = "0.5-2",
    url: Annotated[
        str | None,
        typer.Option(
            help="a running server, e.g. http://127.0.0.1:8000, started with"
            " BIDAK_GUESTS_PER_MINUTE=1000000000 (all players come from one address)"
            " [start one]"
        ),
    ] = None,
    workers: Annotated[
        int | None, typer.Option(help="load-generator processes (0: this one) [by size]")
    ] = None,
    deflate: Annotated[
        bool, typer.Option(help="negotiate permessage-deflate like browsers do")
    ] = True,
    server_workers: Annotated[
        str,
        typer.Option(
            help="processes of the server started here (needs --bus-url); with --sweep a list"
            " such as 1,2,3: the sweep for each, its capacity, and the scaling efficiency"
        ),
    ] = "1",
    routing: Annotated[
        str,
        typer.Option(
            help="with several --server-workers: any (one port, the kernel picks a process for"
            " each connection), room (each process on a port of its own, both players of a match"
            " on one, as a load balancer routing by room would) or split (the two players of"
            " every match on two processes: the worst case)"
        ),
    ] = "any",
    cap_cores: Annotated[
        float | None,
        typer.Option(
            min=0.05,
            max=64,
            help="hold each server process to this much CPU (a cgroup quota, 10 ms period);"
            " capacity then also needs no loop stall over 100 ms",
        ),
    ] = None,
    bus_url: Annotated[
        str | None, typer.Option(help="bus of the server started here, e.g. redis://...")
    ] = None,
    database_url: Annotated[
        str | None,
        typer.Option(
            help="database server of the server started here, e.g. postgresql://.../name:"
            " each run gets a fresh database made beside that one, dropped after it"
            " [a fresh SQLite file]"
        ),
    ] = None,
    quick: Annotated[
        bool,
        typer.Option(
            "--quick",
            help="the clients press Quick match all at once, then play whom they get:"
            " prints the pairing time too",
        ),
    ] = False,
    keep: Annotated[
        Path | None,
        typer.Option(
            help="keep the log of the server started here in this folder, and its database"
            " unless --database-url names one",
            file_okay=False,
        ),
    ] = None,
    sweep: Annotated[
        str | None,
        typer.Option(
            help="match counts to run one after the other, e.g. 500,1000,2000,4000: a row"
            " each, and the largest count whose p99 stayed within 100 ms (replaces --matches)",
        ),
    ] = None,
    repeat: Annotated[
        int,
        typer.Option(
            min=1,
            max=10,
            help="with --sweep: run each count this many times, a fresh server each; a count is"
            " carried only when every run of it was",
        ),
    ] = 1,
) -> None:
    """Scripted matches over real WebSockets: actions/s and action-to-broadcast latency, next to
    a bare WebSocket relay with the same connections and pace."""
    from bidak.bench.server import Think, results_table, run
    from bidak.bench.server.report import scaling_table
    from bidak.bench.server.sweep import run_sweep

    try:
        pace = Think.parse(think)
        counts = _counts(sweep) if sweep is not None else None
        processes = _counts(server_workers, "--server-workers", "process counts")
    except ValueError as invalid:
        console.print(f"[bold red]error:[/] {invalid}")
        raise typer.Exit(2) from None
    if repeat > 1 and counts is None:
        console.print("[bold red]error:[/] --repeat repeats the counts of a --sweep: add one")
        raise typer.Exit(2)
    if len(processes) > 1 and counts is None:
        console.print("[bold red]error:[/] several --server-workers counts need a --sweep")
        raise typer.Exit(2)
    if max(processes) > 1 and bus_url is None and url is None:
        console.print("[bold red]error:[/] several server processes share a bus: add --bus-url")
        raise typer.Exit(2)
    if routing not in ("any", "room", "split"):
        console.print(f"[bold red]error:[/] --routing is any, room or split, not {routing!r}")
        raise typer.Exit(2)
    if routing != "any" and (url is not None or quick):
        console.print(
            "[bold red]error:[/] --routing places the friend matches of servers started here:"
            " leave out --url and --quick"
        )
        raise typer.Exit(2)
    if cap_cores is not None:
        from bidak.bench.server.cpucap import unavailable

        problem = "--cap-cores caps a server started here: leave out --url" if url else None
        problem = problem or unavailable()
        if problem:
            console.print(f"[bold red]error:[/] --cap-cores: {problem}")
            raise typer.Exit(2)
    if counts is not None and keep is not None:
        console.print("[bold red]error:[/] --keep keeps one run's files: leave it out of a sweep")
        raise typer.Exit(2)
    if keep is not None:
        problem = None
        if url is not None:
            problem = "--keep keeps the files of a server started here: leave out --url"
        elif database_url is None and (keep / "bench.sqlite3").exists():
            problem = f"{keep} already holds a bench database (bench.sqlite3): pick another folder"
        if problem:
            console.print(f"[bold red]error:[/] {problem}")
            raise typer.Exit(2)
        keep.mkdir(parents=True, exist_ok=True)
    measured = partial(
        run,
        duration=duration,
        think=pace,
        url=url,
        workers=workers,
        deflate=deflate,
        bus_url=bus_url,
        database_url=database_url,
        cap_cores=cap_cores,
        routing=cast("Routing", routing),
        progress=lambda text: console.print(f"[dim]{text}[/dim]"),
    )
    # SIGTERM ends the bench as Ctrl-C does: every server and load worker it started is
    # stopped on the way out (the default action left them running, orphaned, issue 41).
    signal.signal(signal.SIGTERM, _interrupted)
    if counts is not None:
        carried = {
            k: run_sweep(
                counts,
                partial(measured, server_workers=k),
                capped=cap_cores is not None,
                repeat=repeat,
                show=console.print,
            )
            for k in processes
        }
        if len(processes) > 1:
            console.print(scaling_table(carried, cap_cores))
        return
    results = measured(matches, quick=quick, folder=keep, server_workers=processes[0])
    console.print(results_table(results))
    for result in results:
        if result.tally.errors:
            kinds = ", ".join(f"{n} {kind}" for kind, n in sorted(result.tally.errors.items()))
            console.print(f"{result.name} errors: {kinds}")


def _interrupted(signum: int, frame: object) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def _counts(text: str, option: str = "--sweep", what: str = "match counts") -> list[int]:
    """``500,1000,2000``: counts, each at least 1, in increasing order."""
    try:
        counts = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise ValueError(f"{option} takes {what} like 500,1000,2000, not {text!r}") from None
    if not counts or min(counts) < 1:
        raise ValueError(f"{option} takes {what} of at least 1, not {text!r}")
    return sorted(set(counts))
