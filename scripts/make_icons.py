"""Draw the installable app's PNG icons (src/bidak/web/icon-*.png) from the favicon's shapes.

The favicon (src/bidak/web/favicon.svg) is five shapes on a 64-unit square; this draws the same
shapes with Pillow, four times larger and scaled down (smooth edges), so no SVG renderer is
needed. ``maskable`` icons fill the square with the background and keep the shapes inside the
central 80% that every launcher's mask leaves (the "safe zone" of the web app manifest spec).
Run: python scripts/make_icons.py
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

WEB = Path(__file__).resolve().parents[1] / "src" / "bidak" / "web"
GREEN, RED, BONE, WHITE, INK, BLACK = (
    "#1f3a36",
    "#c8643f",
    "#e9dcc0",
    "#f6efe0",
    "#2a2320",
    "#2a2a33",
)
SUPER = 4


def draw(size: int, maskable: bool) -> Image.Image:
    big = size * SUPER
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    if maskable:
        pen.rectangle((0, 0, big, big), fill=GREEN)
        scale, offset = big * 0.72 / 64, big * 0.14
    else:
        scale, offset = big / 64, 0.0
        pen.rounded_rectangle((0, 0, big - 1, big - 1), radius=14 * scale, fill=GREEN)

    def at(x: float, y: float) -> tuple[float, float]:
        return (offset + x * scale, offset + y * scale)

    pen.polygon([at(10, 8), at(22, 8), at(16, 40)], fill=RED)
    pen.polygon([at(26, 8), at(38, 8), at(32, 40)], fill=BONE)
    x, y = at(44, 44)
    r, w = 12 * scale, 3 * scale
    pen.ellipse((x - r, y - r, x + r, y + r), fill=INK)
    pen.ellipse((x - r + w, y - r + w, x + r - w, y + r - w), fill=WHITE)
    x, y = at(22, 48)
    r = 9 * scale
    pen.ellipse((x - r, y - r, x + r, y + r), fill=BLACK)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    for size in (192, 512):
        draw(size, False).save(WEB / f"icon-{size}.png", optimize=True)
        draw(size, True).save(WEB / f"icon-maskable-{size}.png", optimize=True)


if __name__ == "__main__":
    main()
