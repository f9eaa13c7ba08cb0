"""``bidak hint ID [DICE]``: the engine's ranked plays for a roll, or its cube verdict."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from bidak.cli.errors import friendly
from bidak.cli.positions import IdArg, parse_dice
from bidak.engine.hints import (
    CubeHint,
    PlayHint,
    check_ply,
    cube_available,
    cube_hint,
    play_hint,
)
from bidak.engine.sage import Context, CubeOwner, EngineError
from bidak.formats.ids import IdState, read_any_id

console = Console(highlight=False)

PlyOpt = Annotated[
    str, typer.Option("--ply", "--level", "-l", help="engine depth: 1ply (fast), 2ply or 3ply")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="print the hint as JSON")]

_OWNERS = {"centred": CubeOwner.CENTRED, "on roll": CubeOwner.MOVER, "opponent": CubeOwner.OPPONENT}


def context_of(state: IdState) -> Context:
    """The engine context of an ID: money when it has no match, else the away scores."""
    owner = _OWNERS[state.cube_owner]
    if not state.length:
        return Context(state.cube, owner)
    mine, theirs = state.score or (0, 0)
    away = (state.length - mine, state.length - theirs)
    if min(away) <= 0:
        raise EngineError(f"the {state.length}-point match is already over at {mine}-{theirs}")
    return Context(state.cube, owner, away, state.crawford)


@friendly
def hint(
    id_text: IdArg,
    dice: Annotated[str, typer.Argument(help="the roll, e.g. 31; none: the cube verdict")] = "",
    ply: PlyOpt = "2ply",
    as_json: JsonOpt = False,
    top: Annotated[int, typer.Option(help="how many plays to list (JSON lists all)")] = 10,
) -> None:
    """The engine's best plays for a roll, or without a roll its cube verdict."""
    check_ply(ply)
    state = read_any_id(id_text)
    context = context_of(state)
    roll = parse_dice(dice) if dice else state.dice
    found: PlayHint | CubeHint
    if roll is not None:
        found = play_hint(state.position, roll, context, ply)
    else:
        found = cube_hint(state.position, context, ply, available=cube_available(context))
    if as_json:
        typer.echo(json.dumps(found.to_json(), indent=2))
    elif isinstance(found, PlayHint):
        _print_plays(found, top)
    else:
        _print_cube(found)


def _describe(context: Context) -> str:
    if context.away == (0, 0):
        match = "money game"
    else:
        match = f"{context.away[0]}-away, {context.away[1]}-away"
        if context.crawford:
            match += ", Crawford"
    owner = context.owner.name.lower().replace("mover", "on roll")
    return f"{match}; cube {context.cube} ({owner})"


def _print_plays(found: PlayHint, top: int) -> None:
    high, low = found.dice
    console.print(
        f"{len(found.candidates)} legal play(s) for {high}-{low} at {found.ply}"
        f" ({_describe(found.context)})"
    )
    table = Table("#", "play", "equity", "diff", "win", "W g", "W bg", "L g", "L bg")
    for candidate in found.candidates[: max(1, top)]:
        chances = candidate.probabilities
        table.add_row(
            str(candidate.rank),
            candidate.notation or "(no legal move)",
            f"{candidate.equity:+.3f}",
            f"{-candidate.loss:.3f}" if candidate.loss else "",
            *(
                f"{100 * value:.1f}%"
                for value in (
                    chances.win,
                    chances.win_gammon,
                    chances.win_backgammon,
                    chances.lose_gammon,
                    chances.lose_backgammon,
                )
            ),
        )
    console.print(table)


def _print_cube(found: CubeHint) -> None:
    verdict = found.verdict
    console.print(f"Cube decision at {verdict.ply} ({_describe(found.context)})")
    best = verdict.best_equity
    table = Table("action", "equity", "vs best")
    for name, equity in (
        ("No double", verdict.no_double),
        ("Double, take", verdict.double_take),
        ("Double, pass", verdict.double_pass),
    ):
        table.add_row(name, f"{equity:+.3f}", f"{equity - best:+.3f}")
    console.print(table)
    chances = verdict.probabilities
    console.print(
        f"win {100 * chances.win:.1f}% (gammon {100 * chances.win_gammon:.1f}%),"
        f" lose gammon {100 * chances.lose_gammon:.1f}%"
    )
    console.print(f"Right action: [bold]{found.action.label}[/]")
    if not found.available:
        console.print("(doubling is not open to the player on roll now: figures for information)")
