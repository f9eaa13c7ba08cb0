"""ASCII board diagrams: ``str(position)`` and its inverse ``parse``.

The player on roll is ``X`` and sits at the bottom, with the home board (points 1-6) at the bottom
right; the opponent is ``O``. A column shows up to five checkers; a taller stack shows its total as
a number in the fifth row. The bar column holds the opponent's hit checkers in the top half and the
mover's in the bottom half. Only the framed rows are read back; the lines around them are comments.

>>> from bidak.rules.position import Position
>>> print(Position.initial())  # doctest: +NORMALIZE_WHITESPACE
     13 14 15 16 17 18       19 20 21 22 23 24
   +-------------------+---+-------------------+
   |  X           O    |   |  O              X |
   |  X           O    |   |  O              X |
   |  X           O    |   |  O                |
   |  X                |   |  O                |
   |  X                |   |  O                |
   |                   |BAR|                   |
   |  O                |   |  X                |
   |  O                |   |  X                |
   |  O           X    |   |  X                |
   |  O           X    |   |  X              O |
   |  O           X    |   |  X              O |
   +-------------------+---+-------------------+
     12 11 10  9  8  7        6  5  4  3  2  1
   X (on roll): pips 167, off 0    O: pips 167, off 0
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from bidak.errors import InvalidPosition

if TYPE_CHECKING:
    from bidak.rules.position import Position

ROWS: Final = 5
_TOP: Final = (13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24)
_BOTTOM: Final = (12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
_FRAME: Final = "   +-------------------+---+-------------------+"


def _cell(count: int, letter: str, row: int) -> str:
    """Row ``row`` (0 = the edge of the board) of a column holding ``count`` checkers."""
    if count > ROWS and row == ROWS - 1:
        return f"{count:>2} "
    return f" {letter} " if count > row else "   "


def _line(cells: list[str], bar: str) -> str:
    return "   | " + "".join(cells[:6]) + "|" + bar + "| " + "".join(cells[6:]) + "|"


def render(position: Position) -> str:
    def column(point: int, row: int) -> str:
        n = position.points[point - 1]
        return _cell(abs(n), "X" if n > 0 else "O", row)

    lines = [
        "     "
        + " ".join(f"{p:>2}" for p in _TOP[:6])
        + "       "
        + " ".join(f"{p:>2}" for p in _TOP[6:]),
        _FRAME,
    ]
    for row in range(ROWS):
        lines.append(_line([column(p, row) for p in _TOP], _cell(position.bar.opponent, "O", row)))
    lines.append("   |" + " " * 19 + "|BAR|" + " " * 19 + "|")
    for row in reversed(range(ROWS)):
        lines.append(_line([column(p, row) for p in _BOTTOM], _cell(position.bar.mover, "X", row)))
    lines.append(_FRAME)
    lines.append(
        "     "
        + " ".join(f"{p:>2}" for p in _BOTTOM[:6])
        + "       "
        + " ".join(f"{p:>2}" for p in _BOTTOM[6:])
    )
    pips, off = position.pips, position.off
    lines.append(
        f"   X (on roll): pips {pips.mover}, off {off.mover}"
        f"    O: pips {pips.opponent}, off {off.opponent}"
    )
    return "\n".join(lines)


def _columns(line: str) -> list[str]:
    """The 13 cells of a framed row: six points, the bar, six points."""
    body = line.strip()
    if not body.startswith("|") or body.count("|") != 4:
        raise InvalidPosition(f"not a board row: {line!r}")
    _, left, bar, right, _ = body.split("|")
    left, right = left[1:], right[1:]
    return (
        [left[i : i + 3].strip() for i in range(0, 18, 3)]
        + [bar.strip()]
        + [right[i : i + 3].strip() for i in range(0, 18, 3)]
    )


def _read_half(rows: list[list[str]], labels: tuple[int, ...]) -> dict[int, tuple[str, int]]:
    """Map each point (and ``0`` for the bar) to (letter, count) from the rows of one half."""
    keys = [*labels[:6], 0, *labels[6:]]
    found: dict[int, tuple[str, int]] = {}
    for index, key in enumerate(keys):
        letter, count = "", 0
        for row in rows:
            cell = row[index] if index < len(row) else ""
            if not cell:
                continue
            if cell.isdigit():
                count = int(cell)
            elif cell in ("X", "O"):
                if letter and letter != cell:
                    raise InvalidPosition(f"X and O mixed on point {key or 'bar'}")
                letter, count = cell, count + 1
            else:
                raise InvalidPosition(f"unknown mark {cell!r} on point {key or 'bar'}")
        if count:
            if not letter:
                raise InvalidPosition(f"a count without checkers on point {key or 'bar'}")
            found[key] = (letter, count)
    return found


def parse(text: str) -> Position:
    """Read a diagram in the format of :func:`render` (only the framed rows matter)."""
    from bidak.rules.position import Position, Sides

    framed = [line for line in text.splitlines() if line.strip().startswith("|")]
    middle = [i for i, line in enumerate(framed) if "BAR" in line]
    if len(middle) != 1:
        raise InvalidPosition("a diagram needs exactly one middle row marked BAR")
    top = [_columns(line) for line in framed[: middle[0]]]
    bottom = [_columns(line) for line in reversed(framed[middle[0] + 1 :])]
    points = [0] * 24
    bars = {"X": 0, "O": 0}
    for half, labels, bar_letter in ((top, _TOP, "O"), (bottom, _BOTTOM, "X")):
        for key, (letter, count) in _read_half(half, labels).items():
            if key == 0:
                if letter != bar_letter:
                    raise InvalidPosition(f"{letter} checkers in the wrong half of the bar")
                bars[letter] = count
            else:
                points[key - 1] = count if letter == "X" else -count
    return Position(tuple(points), Sides(bars["X"], bars["O"]))
