"""``bidak show`` and ``bidak plays``: look at a position and its legal plays."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from bidak.cli.errors import friendly
from bidak.errors import InvalidDice
from bidak.formats.ids import read_any_id
from bidak.rules import legal_plays

console = Console(highlight=False)

IdArg = Annotated[
    str, typer.Argument(help="Position ID, PositionID:MatchID, or XGID", metavar="ID")
]


def parse_dice(text: str) -> tuple[int, int]:
    """Read a roll written ``31``, ``3-1``, ``3 1`` or ``3,1``."""
    digits = [c for c in text if not c.isspace() and c not in "-,/x"]
    if len(digits) != 2 or not all(c in "123456" for c in digits):
        raise InvalidDice(f"a roll is two dice from 1 to 6, such as 31 or 3-1, not {text!r}")
    return int(digits[0]), int(digits[1])


@friendly
def show(id_text: IdArg) -> None:
    """Print the board of a position, with pip counts, cube and score."""
    state = read_any_id(id_text)
    console.print(state.describe(), markup=False)


@friendly
def plays(
    id_text: IdArg,
    dice: Annotated[str, typer.Argument(help="the roll, e.g. 31 or 3-1")] = "",
) -> None:
    """List every legal play for a roll, in standard notation."""
    state = read_any_id(id_text)
    roll = parse_dice(dice) if dice else state.dice
    if roll is None:
        raise InvalidDice("give the roll, e.g. `bidak plays 4HPwATDgc/ABMA 31`")
    found = legal_plays(state.position, roll)
    console.print(f"{len(found)} legal play(s) for {roll[0]}-{roll[1]}:")
    for number, play in enumerate(found, 1):
        console.print(f"{number:>3}. {str(play) or '(no legal move: the turn passes)'}")
