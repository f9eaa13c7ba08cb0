"""``bidak bench bots --against gnubg``: the command's side of a duel against GNU Backgammon
(:mod:`bidak.bench.gnubg_duel`): its options checked before anything is played, its progress
and its table."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.console import Console
from rich.table import Table

if TYPE_CHECKING:
    from bidak.bench.gnubg_duel import Summary

console = Console()


def against_gnubg(
    against: str,
    *,
    level: str,
    ply: int,
    pairs: int,
    seed: int,
    judge: str,
    out: Path | None,
    length: int,
    style: str = "",
) -> None:
    from bidak.bench.gnubg_duel import MATCH, MONEY, Settings, read_results, run_duel
    from bidak.bench.gnubg_process import MISSING, gnubg_available
    from bidak.engine.levels import STYLES, BadStyle, Level, restyle
    from bidak.engine.sage import PLIES

    if against != "gnubg":
        raise typer.BadParameter("the only engine to duel against is gnubg", param_hint="--against")
    if "," in level:
        raise typer.BadParameter("name one level against gnubg", param_hint="--levels")
    chosen = Level.parse(level)
    try:
        played = repr(restyle(STYLES[chosen], style, PLIES))
    except BadStyle as bad:
        raise typer.BadParameter(str(bad), param_hint="--style") from None
    if not gnubg_available():
        console.print(f"[red]{MISSING}[/red]")
        raise typer.Exit(2)
    judge_ply = 3 if judge in ("3ply", "") else int(judge.removesuffix("ply"))
    mode = MATCH if length else MONEY
    settings = Settings(chosen.value, ply, seed, judge_ply, mode, length, played)
    kind = f"match{length}" if length else "duel"
    path = out or Path(f"gnubg-{kind}-{settings.level}-{ply}ply-{seed}.jsonl")
    try:
        read_results(path, settings)  # another run's file is refused before anything starts
    except ValueError as refused:
        console.print(f"[bold red]error:[/] {refused}")
        raise typer.Exit(2) from None
    console.print(f"[dim]results in {path} (resumed if it has pairs of these settings)[/dim]")
    summary = run_duel(settings, pairs, path, progress=partial(_gnubg_progress, total=pairs))
    console.print(_gnubg_table(summary))


def _figure(summary: Summary, mean: float, half: float, unit: bool = False) -> str:
    """A duel's figure with its 95% interval: a share of matches, or points a game (``unit``:
    saying which)."""
    if summary.settings.mode == "match":
        say = " of matches" if unit else ""
        return f"{mean:.1%}{say} ({mean - half:.1%} .. {mean + half:.1%})"
    say = " ppg" if unit else ""
    return f"{mean:+.3f}{say} ({mean - half:+.3f} .. {mean + half:+.3f})"


def _adjusted(summary: Summary) -> str:
    """The luck-adjusted figure (:mod:`bidak.bench.duel_luck`), saying over how many pairs
    when some were stored before luck was recorded; empty when none recorded it."""
    if summary.adjusted is None:
        return ""
    count, mean, half = summary.adjusted
    over = "" if count == summary.pairs else f" over the {count} pairs that recorded it"
    return f"; luck-adjusted {_figure(summary, mean, half)}{over}"


def _gnubg_progress(summary: Summary, *, total: int) -> None:
    figure = _figure(summary, summary.mean, summary.half_width, unit=True) + _adjusted(summary)
    console.print(f"[dim]{summary.pairs}/{total} pairs: {figure}[/dim]")


def _gnubg_table(summary: Summary) -> Table:
    """The summary of a duel against gnubg, and where the equity went by kind of decision."""
    settings, ledger = summary.settings, summary.ledger
    who = f"{settings.level} vs gnubg {settings.ply}-ply, {summary.pairs} duplicate pairs"
    if settings.mode == "match":
        title = (
            f"{who} of {settings.length}-point matches: Bidak won {summary.mean:.1%} of them, "
            f"95% CI {summary.low:.1%} .. {summary.high:.1%}; final score "
            f"{summary.margin:+.2f} points a match{_adjusted(summary)}"
        )
        units, per = "match-winning chance", "a match"
    else:
        title = (
            f"{who}, cubeless money: {summary.mean:+.3f} points a game, 95% CI "
            f"{summary.low:+.3f} .. {summary.high:+.3f}{_adjusted(summary)}"
        )
        units, per = "equity", "a game"
    table = Table(
        "decision",
        "decisions",
        "disagreed",
        f"Bidak lost ({units}, gnubg {settings.judge_ply}-ply)",
        "gnubg lost",
        title=title,
    )
    played = max(1, 2 * summary.pairs)
    for kind, count in ledger.decisions.items():
        name = kind if kind in ("double", "take") else f"checker play, {kind}"
        table.add_row(
            name,
            str(count),
            str(ledger.disagreed[kind]),
            f"{ledger.bidak_lost[kind] / played:.4f} {per}",
            f"{ledger.gnubg_lost[kind] / played:.4f} {per}",
        )
    return table
