"""The cosmetics shop's catalogue: board themes and checker sets, their prices and colours.

Pure data and colour arithmetic. A board theme colours the frame, the playing surface, the two
kinds of points and the bar, and may add a texture the client draws as an SVG pattern; it is the
viewer's own choice. A checker set colours one player's checkers, and everybody at the table sees
it. Every set must stay readable on every theme, also for colour-blind players, so readability is
judged by luminance contrast (WCAG 2's ratio), which does not depend on telling hues apart: a
checker's body or its edge contrasts at least :data:`MIN_CONTRAST` with everything it can stand
on, and its count digits contrast at least :data:`MIN_TEXT_CONTRAST` with its body.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Kind(enum.StrEnum):
    BOARD = "board"
    CHECKERS = "checkers"


@dataclass(frozen=True)
class BoardTheme:
    id: str
    price: int
    frame: str
    surface: str
    point_a: str
    point_b: str
    bar: str
    label: str
    """The point numbers' colour, on the frame."""
    texture: str | None = None
    """An SVG pattern drawn over the surface: "linen", "dots", "grain", "waves" or "batik"."""

    @property
    def kind(self) -> Kind:
        return Kind.BOARD

    def grounds(self) -> dict[str, str]:
        """What a checker can stand on: the surface, both kinds of point, the bar and trays."""
        return {
            "surface": self.surface,
            "point_a": self.point_a,
            "point_b": self.point_b,
            "bar": self.bar,
        }


@dataclass(frozen=True)
class CheckerSet:
    id: str
    price: int
    body: str
    edge: str
    text: str
    """The digits of a stack's count, drawn on a checker."""

    @property
    def kind(self) -> Kind:
        return Kind.CHECKERS


Item = BoardTheme | CheckerSet

MIN_CONTRAST = 3.0
"""WCAG 2's minimum for graphical objects (success criterion 1.4.11)."""
MIN_TEXT_CONTRAST = 4.5
"""WCAG 2's minimum for normal text (1.4.3)."""
ALIKE_BELOW = 2.5
"""Two checker sets whose bodies contrast less than this look alike at one table."""

BOARDS: tuple[BoardTheme, ...] = (
    BoardTheme("classic", 0, "#3b2a21", "#efe3c8", "#b9573d", "#2f5f58", "#2a1d17", "#fff4dc"),
    BoardTheme(
        "teak", 60, "#5a3a22", "#f2e6cf", "#8c4a2f", "#4a3526", "#3d2716", "#fbe9c8", "grain"
    ),
    BoardTheme(
        "lagoon", 80, "#163a4a", "#e4f0ef", "#1a5f78", "#2d4f6c", "#0f2a36", "#e8f6f8", "waves"
    ),
    BoardTheme(
        "forest", 80, "#24331f", "#e9ecd6", "#4f7a3a", "#6b4a2b", "#1a2616", "#eef3dc", "linen"
    ),
    BoardTheme(
        "sand", 100, "#6b5536", "#f4ead2", "#a4662a", "#7a5c3a", "#4f3d25", "#fff3d9", "dots"
    ),
    BoardTheme("night", 120, "#14161f", "#2b3142", "#56669a", "#8a5a35", "#0b0c12", "#dfe5f5"),
    BoardTheme(
        "batik", 150, "#3a2418", "#f1e2c4", "#8a3b26", "#2f4a6b", "#2a1910", "#fbe6c0", "batik"
    ),
)

CHECKERS: tuple[CheckerSet, ...] = (
    CheckerSet("ivory", 0, "#f8f2e4", "#5c4f37", "#3a3428"),
    CheckerSet("ebony", 0, "#2b2b34", "#d8d2c4", "#f1ead9"),
    CheckerSet("ruby", 50, "#9e1f2c", "#f6d58c", "#fff4e0"),
    CheckerSet("jade", 50, "#cfeedd", "#1d4a35", "#143a29"),
    CheckerSet("gold", 80, "#f2c14e", "#24180a", "#2e2108"),
    CheckerSet("sapphire", 80, "#1c3f8f", "#e6ecff", "#ffffff"),
    CheckerSet("pearl", 100, "#fdfbff", "#4b4760", "#2b2838"),
    CheckerSet("coral", 120, "#ffb49c", "#3d1a10", "#2a0f08"),
    CheckerSet("onyx", 120, "#0e0e10", "#f0c86a", "#f7e7c0"),
)

DEFAULT_BOARD = "classic"
DEFAULT_CHECKERS = ("ivory", "ebony")
"""What seat 0 and seat 1 show when their players have chosen nothing else."""
FREE = frozenset({DEFAULT_BOARD, *DEFAULT_CHECKERS})
"""Items every player owns without buying them."""

_ITEMS: dict[str, Item] = {
    **{theme.id: theme for theme in BOARDS},
    **{checker.id: checker for checker in CHECKERS},
}


def item(item_id: str) -> Item | None:
    return _ITEMS.get(item_id)


def board(theme_id: str | None) -> BoardTheme:
    found = _ITEMS.get(theme_id or "")
    return found if isinstance(found, BoardTheme) else _board(DEFAULT_BOARD)


def checkers(set_id: str | None, seat: int = 0) -> CheckerSet:
    found = _ITEMS.get(set_id or "")
    return found if isinstance(found, CheckerSet) else _checkers(DEFAULT_CHECKERS[seat])


def _board(theme_id: str) -> BoardTheme:
    found = _ITEMS[theme_id]
    assert isinstance(found, BoardTheme)
    return found


def _checkers(set_id: str) -> CheckerSet:
    found = _ITEMS[set_id]
    assert isinstance(found, CheckerSet)
    return found


# -- colour arithmetic ------------------------------------------------------------------------


def luminance(colour: str) -> float:
    """WCAG 2's relative luminance of an sRGB colour ``#rrggbb``."""
    text = colour.removeprefix("#")
    if len(text) != 6:
        raise ValueError(f"not a #rrggbb colour: {colour!r}")
    channels = [int(text[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    """WCAG 2's contrast ratio between two colours, from 1 (the same) to 21 (black on white)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def readable_on(checker: CheckerSet, theme: BoardTheme) -> dict[str, float]:
    """For each ground of ``theme``: the better contrast of the checker's body or edge."""
    return {
        name: max(contrast(checker.body, ground), contrast(checker.edge, ground))
        for name, ground in theme.grounds().items()
    }


def look_alike(a: CheckerSet, b: CheckerSet) -> bool:
    """Whether two players' checkers would be hard to tell apart at one table."""
    return contrast(a.body, b.body) < ALIKE_BELOW


def table_checkers(seat0: str | None, seat1: str | None) -> tuple[CheckerSet, CheckerSet]:
    """What each seat's checkers look like at a table, on every screen: each player's own set,
    except that when the two look alike the second seat falls back to whichever default set
    contrasts most with the first."""
    first, second = checkers(seat0, 0), checkers(seat1, 1)
    if look_alike(first, second):
        second = max(
            (_checkers(d) for d in DEFAULT_CHECKERS), key=lambda c: contrast(c.body, first.body)
        )
    return first, second
