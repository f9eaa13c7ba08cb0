"""A position as a picture to share, from the view of the player on roll (their home board at
the bottom right), in a board theme and checker sets of the shop's catalogue: one drawing (a
list of shapes, :func:`drawing`) written out as an SVG document or rasterised to a PNG for chat
apps that show no SVG. Nothing a visitor types reaches the picture but the counts the XGID gives.

The PNG is drawn with Pillow (a dependency: its wheels carry zlib and FreeType, so nothing of the
system is needed). Should Pillow be missing, :func:`position_png` raises :class:`NoRasteriser`
and the route refuses with 503 rather than failing.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

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
PNG_SCALE = 2
"""The PNG is this many times the SVG's size (732 x 672): sharp on a phone's screen."""
SUPERSAMPLE = 3
"""The PNG is drawn this many times larger still, then reduced: smooth edges."""


class NoRasteriser(Exception):
    """The server cannot draw a PNG: Pillow is not installed."""


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    width: float
    height: float
    fill: str
    radius: float = 0
    stroke: str | None = None


@dataclass(frozen=True, slots=True)
class Polygon:
    points: tuple[tuple[float, float], ...]
    fill: str


@dataclass(frozen=True, slots=True)
class Circle:
    x: float
    y: float
    radius: float
    fill: str
    stroke: str
    stroke_width: float


@dataclass(frozen=True, slots=True)
class Label:
    """Text centred on ``x`` with its baseline at ``y``."""

    x: float
    y: float
    text: str
    size: float
    fill: str
    bold: bool = False


Shape = Rect | Polygon | Circle | Label


def _x(point: int) -> float:
    """The centre of ``point``'s column (the mover's numbering: 1 at the bottom right)."""
    column = 12 - point if point <= 12 else point - 13  # 0 at the left
    return FRAME + column * POINT + (BAR if column >= 6 else 0) + POINT / 2


def _checkers(x: float, count: int, top: bool, look: CheckerSet) -> list[Shape]:
    radius = POINT / 2 - 1
    drawn: list[Shape] = []
    for index in range(min(count, STACK)):
        offset = FRAME + radius + 1 + index * (2 * radius)
        y = offset if top else TOTAL_HEIGHT - offset
        drawn.append(Circle(x, y, radius, look.body, look.edge, 1.5))
    if count > STACK:
        offset = FRAME + radius + 1 + (STACK - 1) * (2 * radius)
        y = offset if top else TOTAL_HEIGHT - offset
        drawn.append(Label(x, y + 4, str(count), 12, look.text, bold=True))
    return drawn


def drawing(xgid: str, theme: BoardTheme, mine: CheckerSet, theirs: CheckerSet) -> list[Shape]:
    """The shapes of ``xgid``'s position, back to front; :class:`bidak.errors.BidakError` for a
    bad ID."""
    state = read_any_id(xgid)
    position = state.position
    shapes: list[Shape] = [
        Rect(0, 0, WIDTH, TOTAL_HEIGHT, theme.frame, radius=8),
        Rect(FRAME, FRAME, 12 * POINT + BAR, HEIGHT, theme.surface),
        Rect(FRAME + 6 * POINT, FRAME, BAR, HEIGHT, theme.bar),
    ]
    for point in range(1, 25):
        x, top = _x(point), point > 12
        base = FRAME if top else TOTAL_HEIGHT - FRAME
        tip = base + (0.42 * HEIGHT if top else -0.42 * HEIGHT)
        colour = theme.point_a if point % 2 else theme.point_b
        shapes.append(Polygon(((x - POINT / 2, base), (x + POINT / 2, base), (x, tip)), colour))
    for point, count in enumerate(position.points, 1):
        if count:
            look = mine if count > 0 else theirs
            shapes += _checkers(_x(point), abs(count), point > 12, look)
    centre = FRAME + 6 * POINT + BAR / 2
    for count, top, look in (
        (position.bar.mover, False, mine),
        (position.bar.opponent, True, theirs),
    ):
        if count:
            shapes += _checkers(centre, count, top, look)
    if state.dice is not None:
        for index, die in enumerate(state.dice):
            x = FRAME + 9 * POINT + BAR + (index - 1) * 28
            shapes.append(Rect(x, TOTAL_HEIGHT / 2 - 12, 24, 24, "#ffffff", 4, "#333333"))
            shapes.append(Label(x + 12, TOTAL_HEIGHT / 2 + 5, str(die), 15, "#222222"))
    return shapes


def _svg(shape: Shape) -> str:
    match shape:
        case Rect():
            corner = f' rx="{shape.radius:g}"' if shape.radius else ""
            edge = f' stroke="{shape.stroke}"' if shape.stroke else ""
            return (
                f'<rect x="{shape.x:.1f}" y="{shape.y:.1f}" width="{shape.width:g}"'
                f' height="{shape.height:g}"{corner} fill="{shape.fill}"{edge}/>'
            )
        case Polygon():
            (x0, y0), *rest = shape.points
            path = f"M{x0:.1f},{y0:.1f} " + " ".join(f"L{x:.1f},{y:.1f}" for x, y in rest)
            return f'<path d="{path} Z" fill="{shape.fill}"/>'
        case Circle():
            return (
                f'<circle cx="{shape.x:.1f}" cy="{shape.y:.1f}" r="{shape.radius:.1f}"'
                f' fill="{shape.fill}" stroke="{shape.stroke}"'
                f' stroke-width="{shape.stroke_width}"/>'
            )
        case Label():
            weight = ' font-weight="bold"' if shape.bold else ""
            return (
                f'<text x="{shape.x:.1f}" y="{shape.y:.1f}" text-anchor="middle"'
                f' font-size="{shape.size:g}" font-family="sans-serif"{weight}'
                f' fill="{shape.fill}">{shape.text}</text>'
            )


def position_svg(xgid: str, theme: BoardTheme, mine: CheckerSet, theirs: CheckerSet) -> str:
    """The SVG document of ``xgid``'s position; :class:`bidak.errors.BidakError` for a bad ID."""
    parts = "".join(_svg(shape) for shape in drawing(xgid, theme, mine, theirs))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{TOTAL_HEIGHT}"'
        f' viewBox="0 0 {WIDTH} {TOTAL_HEIGHT}" role="img">{parts}</svg>'
    )


def position_png(xgid: str, theme: BoardTheme, mine: CheckerSet, theirs: CheckerSet) -> bytes:
    """The PNG of ``xgid``'s position, :data:`PNG_SCALE` times the SVG's size, from the same
    shapes; :class:`NoRasteriser` without Pillow, ``BidakError`` for a bad ID."""
    shapes = drawing(xgid, theme, mine, theirs)
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError as missing:  # Pillow is a dependency; a server may still lack it
        raise NoRasteriser(
            "This server cannot draw PNG pictures: install Pillow (pip install pillow);"
            " the SVG picture works without it"
        ) from missing
    k = PNG_SCALE * SUPERSAMPLE
    image = Image.new("RGBA", (WIDTH * k, TOTAL_HEIGHT * k), (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    for shape in shapes:
        match shape:
            case Rect():
                box = (
                    shape.x * k,
                    shape.y * k,
                    (shape.x + shape.width) * k - 1,
                    (shape.y + shape.height) * k - 1,
                )
                outline = shape.stroke
                pen.rounded_rectangle(
                    box,
                    radius=shape.radius * k,
                    fill=shape.fill,
                    outline=outline,
                    width=k if outline else 0,
                )
            case Polygon():
                pen.polygon([(x * k, y * k) for x, y in shape.points], fill=shape.fill)
            case Circle():
                r = shape.radius + shape.stroke_width / 2
                box = ((shape.x - r) * k, (shape.y - r) * k, (shape.x + r) * k, (shape.y + r) * k)
                pen.ellipse(
                    box, fill=shape.fill, outline=shape.stroke, width=round(shape.stroke_width * k)
                )
            case Label():
                font = ImageFont.load_default(size=shape.size * k)
                stroke = k // 2 if shape.bold else 0
                pen.text(
                    (shape.x * k, shape.y * k),
                    shape.text,
                    fill=shape.fill,
                    font=font,
                    anchor="ms",
                    stroke_width=stroke,
                    stroke_fill=shape.fill,
                )
    size = (WIDTH * PNG_SCALE, TOTAL_HEIGHT * PNG_SCALE)
    out = io.BytesIO()
    image.resize(size, Image.Resampling.LANCZOS).save(out, format="PNG")
    return out.getvalue()
