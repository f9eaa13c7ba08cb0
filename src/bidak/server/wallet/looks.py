"""Pictures of the shop's items, drawn as small SVG documents from the catalogue's colours.

Everything drawn comes from :mod:`bidak.economy.shop` (no player input reaches these documents).
A texture is a tile of thin strokes at low opacity, laid over a board's surface; the table view
uses the same tile (``/api/shop/textures/{name}.svg``) as an SVG pattern.
"""

from __future__ import annotations

from bidak.economy.shop import BoardTheme, CheckerSet, item

TEXTURES: dict[str, str] = {
    # Each: the inside of a 24 x 24 tile, drawn in currentColor.
    "linen": '<path d="M0 6H24M0 18H24M6 0V24M18 0V24" stroke-width="1" opacity="0.18"/>',
    "dots": '<circle cx="6" cy="6" r="1.6" opacity="0.22"/><circle cx="18" cy="18" r="1.6"'
    ' opacity="0.22"/>',
    "grain": '<path d="M0 5C6 3 10 8 24 5M0 14C8 12 14 17 24 13M0 21C7 19 15 23 24 20"'
    ' fill="none" stroke-width="1" opacity="0.2"/>',
    "waves": '<path d="M0 8Q6 4 12 8T24 8M0 20Q6 16 12 20T24 20" fill="none"'
    ' stroke-width="1.2" opacity="0.2"/>',
    "batik": '<path d="M12 2L22 12L12 22L2 12Z" fill="none" stroke-width="1.2" opacity="0.22"/>'
    '<circle cx="12" cy="12" r="2.4" opacity="0.22"/>',
}
TEXTURE_INK = "#000000"


def texture_tile(name: str) -> str | None:
    """The texture's 24 x 24 tile as an SVG document, or None for an unknown name."""
    inside = TEXTURES.get(name)
    if inside is None:
        return None
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24"'
        f' fill="{TEXTURE_INK}" stroke="{TEXTURE_INK}" color="{TEXTURE_INK}">{inside}</svg>'
    )


def _board_preview(theme: BoardTheme) -> str:
    points = []
    for index in range(6):
        x = 12 + index * 16
        colour = theme.point_a if index % 2 == 0 else theme.point_b
        points.append(f'<path d="M{x} 10L{x + 16} 10L{x + 8} 44Z" fill="{colour}"/>')
        colour = theme.point_b if index % 2 == 0 else theme.point_a
        points.append(f'<path d="M{x} 70L{x + 16} 70L{x + 8} 36Z" fill="{colour}"/>')
    texture = ""
    if theme.texture:
        inside = TEXTURES[theme.texture]
        texture = (
            f'<defs><pattern id="t" width="24" height="24" patternUnits="userSpaceOnUse"'
            f' fill="{TEXTURE_INK}" stroke="{TEXTURE_INK}">{inside}</pattern></defs>'
            '<rect x="12" y="10" width="96" height="60" fill="url(#t)"/>'
        )
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80" viewBox="0 0 120 80">'
        f'<rect width="120" height="80" rx="8" fill="{theme.frame}"/>'
        f'<rect x="12" y="10" width="96" height="60" fill="{theme.surface}"/>'
        f"{texture}{''.join(points)}"
        f'<rect x="56" y="6" width="8" height="68" fill="{theme.bar}"/></svg>'
    )


def _checker_preview(checker: CheckerSet) -> str:
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="80" height="80" viewBox="0 0 80 80">'
        f'<circle cx="40" cy="40" r="34" fill="{checker.body}" stroke="{checker.edge}"'
        ' stroke-width="4"/>'
        f'<circle cx="40" cy="40" r="24" fill="none" stroke="{checker.edge}" stroke-width="2"'
        ' opacity="0.5"/>'
        f'<text x="40" y="49" text-anchor="middle" font-family="system-ui, sans-serif"'
        f' font-size="26" font-weight="700" fill="{checker.text}">5</text></svg>'
    )


def preview(item_id: str) -> str | None:
    """The item's picture as an SVG document, or None when there is no such item."""
    found = item(item_id)
    if isinstance(found, BoardTheme):
        return _board_preview(found)
    if isinstance(found, CheckerSet):
        return _checker_preview(found)
    return None
