"""A position as a picture to share: an SVG document drawn from an XGID, in a board theme and
checker sets of the shop's catalogue, from the view of the player on roll (their home board at
the bottom right). Nothing a visitor types reaches the document but the counts the XGID gives."""

from __future__ import annotations

from bidak.economy.shop import BoardTheme, CheckerSet
from bidak.formats.ids import read_any_id

POINT = 26
"""A point's width; a checker's diameter is a little less."""
FRAME = 12
BAR = 30
HEIGHT = 12 * POINT
STACK = 5
"""Checkers drawn on a point before the rest are written as a number."""
WIDTH = 2 * FRAME + 12 * POINT + BAR
TOTAL_HEIGHT = 2 * FRAME + HEIGHT


def _x(point: int) -> float:
    """The centre of ``point``'s column (the mover's numbering: 1 at the bottom right)."""
    column = 12 - point if point <= 12 else point - 13  # 0 at the left
    return FRAME + column * POINT + (BAR if column >= 6 else 0) + POINT / 2


def _checkers(x: float, count: int, top: bool, look: CheckerSet) -> list[str]:
    radius = POINT / 2 - 1
    drawn = []
    for index in range(min(count, STACK)):
        offset = FRAME + radius + 1 + index * (2 * radius)
        y = offset if top else TOTAL_HEIGHT - offset
        drawn.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius:.1f}" fill="{look.body}"'
            f' stroke="{look.edge}" stroke-width="1.5"/>'
        )
    if count > STACK:
        offset = FRAME + radius + 1 + (STACK - 1) * (2 * radius)
        y = offset if top else TOTAL_HEIGHT - offset
        drawn.append(
            f'<text x="{x:.1f}" y="{y + 4:.1f}" text-anchor="middle" font-size="12"'
            f' font-family="sans-serif" font-weight="bold" fill="{look.text}">{count}</text>'
        )
    return drawn


def position_svg(xgid: str, theme: BoardTheme, mine: CheckerSet, theirs: CheckerSet) -> str:
    """The SVG document of ``xgid``'s position; :class:`bidak.errors.BidakError` for a bad ID."""
    state = read_any_id(xgid)
    position = state.position
    parts = [
        f'<rect width="{WIDTH}" height="{TOTAL_HEIGHT}" rx="8" fill="{theme.frame}"/>',
        f'<rect x="{FRAME}" y="{FRAME}" width="{12 * POINT + BAR}" height="{HEIGHT}"'
        f' fill="{theme.surface}"/>',
        f'<rect x="{FRAME + 6 * POINT}" y="{FRAME}" width="{BAR}" height="{HEIGHT}"'
        f' fill="{theme.bar}"/>',
    ]
    for point in range(1, 25):
        x, top = _x(point), point > 12
        base = FRAME if top else TOTAL_HEIGHT - FRAME
        tip = base + (0.42 * HEIGHT if top else -0.42 * HEIGHT)
        colour = theme.point_a if point % 2 else theme.point_b
        parts.append(
            f'<path d="M{x - POINT / 2:.1f},{base} L{x + POINT / 2:.1f},{base} L{x:.1f},{tip:.1f}'
            f' Z" fill="{colour}"/>'
        )
    for point, count in enumerate(position.points, 1):
        if count:
            look = mine if count > 0 else theirs
            parts += _checkers(_x(point), abs(count), point > 12, look)
    centre = FRAME + 6 * POINT + BAR / 2
    for count, top, look in (
        (position.bar.mover, False, mine),
        (position.bar.opponent, True, theirs),
    ):
        if count:
            parts += _checkers(centre, count, top, look)
    if state.dice is not None:
        for index, die in enumerate(state.dice):
            x = FRAME + 9 * POINT + BAR + (index - 1) * 28
            parts.append(
                f'<rect x="{x:.1f}" y="{TOTAL_HEIGHT / 2 - 12:.1f}" width="24" height="24" rx="4"'
                f' fill="#ffffff" stroke="#333333"/>'
                f'<text x="{x + 12:.1f}" y="{TOTAL_HEIGHT / 2 + 5:.1f}" text-anchor="middle"'
                f' font-size="15" font-family="sans-serif" fill="#222222">{die}</text>'
            )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{TOTAL_HEIGHT}"'
        f' viewBox="0 0 {WIDTH} {TOTAL_HEIGHT}" role="img">{"".join(parts)}</svg>'
    )
