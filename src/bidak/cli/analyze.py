"""``bidak analyze FILE.mat``: review a match, show the doubtful decisions and each player's PR."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Column, Table

from bidak.cli.errors import friendly, stderr
from bidak.cli.hint import JsonOpt, PlyOpt
from bidak.engine.hints import check_ply
from bidak.engine.review import review_mat
from bidak.engine.review_model import (
    CheckerDecision,
    Decision,
    GameReview,
    MatchReview,
    PlayerTotals,
    Verdict,
)
from bidak.errors import InvalidMatchFile
from bidak.formats import read_mat

console = Console(highlight=False)

_STYLES = {Verdict.DOUBTFUL: "yellow", Verdict.ERROR: "dark_orange", Verdict.BLUNDER: "bold red"}
_CUBE_WORDS = {"double": "Double", "no_double": "No double", "take": "Take", "drop": "Drop"}


def read_text(path: Path) -> str:
    """The text of a match file, or :class:`InvalidMatchFile` saying why it cannot be read."""
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidMatchFile(f"{path} is not a text file") from None
    except OSError as error:
        raise InvalidMatchFile(f"cannot read {path}: {error.strerror or error}") from None


@friendly
def analyze(
    file: Annotated[Path, typer.Argument(help="a .mat match file", metavar="FILE.mat")],
    ply: PlyOpt = "2ply",
    as_json: JsonOpt = False,
) -> None:
    """Review every decision of a match: errors, blunders, luck and PR per player."""
    check_ply(ply)
    record = read_mat(read_text(file))
    started = time.perf_counter()
    with Progress(
        TextColumn("reviewing"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=stderr,
        transient=True,
    ) as bar:
        task = bar.add_task("review", total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        review = review_mat(record, ply, advance)
    seconds = time.perf_counter() - started
    if as_json:
        typer.echo(json.dumps(review.to_json(), indent=2))
        return
    _print_report(review, seconds)


def _print_report(review: MatchReview, seconds: float) -> None:
    names = review.players
    console.print(
        f"[bold]{names[0]}[/] vs [bold]{names[1]}[/], {review.length}-point match:"
        f" {len(review.decisions)} decisions reviewed at {review.ply} in {seconds:.1f} s"
    )
    for game in review.games:
        _print_game(game, names)
    console.print(_totals_table(review.totals))


def _print_game(game: GameReview, names: tuple[str, str]) -> None:
    title = f"Game {game.number}: {names[0]} {game.score[0]}, {names[1]} {game.score[1]}"
    if game.crawford:
        title += " (Crawford)"
    if game.winner is not None:
        title += f"; {names[game.winner]} wins {game.points}"
    shown = [d for d in game.decisions if d.counted and d.verdict is not Verdict.OK]
    if not shown:
        console.print(f"\n{title}: no doubtful decisions")
        return
    table = Table(
        Column("turn, player / position", no_wrap=True),
        "dice",
        Column("played", min_width=10, overflow="fold"),
        Column("best", min_width=10, overflow="fold"),
        "loss",
        "verdict",
        title=title,
        box=box.SIMPLE_HEAD,
        padding=(0, 1),
    )
    for decision in shown:
        table.add_row(*_row(decision, names))
    console.print()
    console.print(table)


def _row(decision: Decision, names: tuple[str, str]) -> list[str]:
    where = decision.where
    if isinstance(decision, CheckerDecision):
        dice = f"{decision.dice[0]}{decision.dice[1]}"
        played, best = decision.played or "(no move)", decision.best or "(no move)"
    else:
        dice = "cube"
        played, best = _CUBE_WORDS[decision.choice], _CUBE_WORDS[decision.best]
    style = _STYLES.get(decision.verdict, "")
    return [
        f"{where.turn}. {names[where.player]}\n[dim]{where.gnubg_id}[/]",
        dice,
        played,
        best,
        f"{decision.loss:.3f}",
        f"[{style}]{decision.verdict.value}[/]",
    ]


def _totals_table(totals: tuple[PlayerTotals, PlayerTotals]) -> Table:
    table = Table(
        "",
        *(Column(player.name, justify="right", no_wrap=True) for player in totals),
        title="Totals",
        box=box.SIMPLE_HEAD,
    )
    rows: list[tuple[str, Callable[[PlayerTotals], str]]] = [
        ("PR (equity lost per decision x 500)", lambda p: f"{p.pr:.1f}"),
        ("  checker play", lambda p: f"{p.checker_pr:.1f}"),
        ("  cube", lambda p: f"{p.cube_pr:.1f}"),
        ("decisions counted", lambda p: str(p.decisions)),
        ("doubtful", lambda p: str(p.doubtful)),
        ("errors", lambda p: str(p.errors)),
        ("blunders", lambda p: str(p.blunders)),
        ("luck (sum over rolls)", lambda p: f"{p.luck:+.3f}"),
    ]
    for label, cell in rows:
        table.add_row(label, *(cell(player) for player in totals))
    return table
