"""Measuring a page's layout the way a player sees it: controls and texts that overlap, text cut
off or wrapped where it should sit on one line, and names cut short."""

from __future__ import annotations

from pathlib import Path
from typing import Any

# What is measured: every visible control and text a player reads or taps at the table, the
# header, the toasts and an open dialog. A pair overlaps when their boxes share more than a
# pixel each way and neither holds the other. What lies under a dialog's backdrop is covered on
# purpose and is not compared with the dialog's own parts (the toasts float over everything, so
# they are compared with all); what has scrolled under the sticky header is hidden. Names: the
# visible characters of each name, counted with a Range per character against the box that
# clips it.
MEASURE = (Path(__file__).parent / "layout.js").read_text()


def layout_problems(page: Any, names: list[str]) -> tuple[list[str], list[tuple[str, int]]]:
    """The overlaps, cut and wrapped texts and names cut below 8 characters on the page now,
    and how many characters of each name show."""
    found: dict[str, Any] = page.evaluate(MEASURE, names)
    return found["problems"], [(n, s) for n, s in found["shownNames"]]
