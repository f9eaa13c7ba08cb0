"""The player's accessibility settings (issue 40): set on the account page, kept with the account
(another browser of it draws with them), honoured at the table; and the distinguishable checker
set checked against simulated colour-vision deficiencies."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import DESKTOP
from tests.web.helpers import BOARD, start_practice, wait_for_my_move_or_end

CSS = Path(__file__).resolve().parents[2] / "src" / "bidak" / "web" / "a11y.css"

# Machado, Oliveira and Fernandes (2009), severity 1: linear RGB to what a dichromat sees.
DEFICIENCIES = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
    "none": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
}


def linear(colour: str) -> tuple[float, ...]:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    return tuple(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)


def seen(colour: str, matrix: tuple[tuple[float, ...], ...]) -> float:
    """The relative luminance of ``colour`` as the deficiency shows it."""
    rgb = linear(colour)
    r, g, b = (
        min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb, strict=True)))) for row in matrix
    )
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str, matrix: tuple[tuple[float, ...], ...]) -> float:
    light, dark = sorted((seen(a, matrix), seen(b, matrix)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def shapes_colours() -> dict[str, str]:
    css = CSS.read_text("utf-8")

    def fill(selector: str, prop: str = "fill") -> str:
        rule = re.search(re.escape(selector) + r"[^{]*\{([^}]*)\}", css)
        assert rule, selector
        found = re.search(rf"(?<![-\w]){prop}:\s*(#[0-9a-f]{{6}})", rule.group(1))
        assert found, (selector, prop)
        return found.group(1)

    return {
        "me": fill("html.a11y-shapes .board .ck-me .ck-body"),
        "them": fill("html.a11y-shapes .board .ck-them .ck-body"),
        "my ring": fill("html.a11y-shapes .board .ck-me .ck-ring", "stroke"),
        "their ring": fill("html.a11y-shapes .board .ck-them .ck-ring", "stroke"),
    }


@pytest.mark.parametrize("deficiency", list(DEFICIENCIES))
def test_the_distinguishable_checkers_differ_in_lightness_for_every_common_deficiency(
    deficiency: str,
) -> None:
    colours = shapes_colours()
    matrix = DEFICIENCIES[deficiency]
    # The two sides, told apart by lightness alone (WCAG's 7:1, the enhanced level).
    assert contrast(colours["me"], colours["them"], matrix) >= 7
    # Each side's ring is seen on its own checker (3:1, as for a graphic's part).
    assert contrast(colours["my ring"], colours["me"], matrix) >= 3
    assert contrast(colours["their ring"], colours["them"], matrix) >= 3
    assert "stroke-dasharray" in CSS.read_text("utf-8"), "the opponent's ring is dashed"


def test_settings_are_kept_with_the_account_and_honoured_at_the_table(
    server: Any, pages: Any
) -> None:
    running = server()
    page = pages.new(running.base, DESKTOP, reduced_motion="no-preference")
    page.goto("/#/account")
    page.wait_for_selector("#access-contrast:not([disabled])")
    for name in ("motion", "contrast", "large", "shapes"):
        with page.expect_response(lambda r: r.url.endswith("/api/me/access")) as answer:
            page.check(f"#access-{name}")
        assert answer.value.ok
    classes = page.evaluate("document.documentElement.className")
    assert {"a11y-motion", "a11y-contrast", "a11y-large", "a11y-shapes"} <= set(classes.split())

    # Another browser of the same account (its cookie, none of this one's storage).
    other = pages.new(running.base, DESKTOP, reduced_motion="no-preference")
    other.context.add_cookies(page.context.cookies())
    other.goto("/")
    other.wait_for_function("() => document.documentElement.classList.contains('a11y-shapes')")
    start_practice(other, "beginner", 1)
    assert wait_for_my_move_or_end(other) == "move"
    style = other.evaluate(
        """() => {
            const them = document.querySelector('#main svg.board .ck-them .ck-ring');
            const mine = document.querySelector('#main svg.board .checker.movable');
            return {
                dash: getComputedStyle(them).strokeDasharray,
                fill: getComputedStyle(them.previousElementSibling).fill,
                pulse: getComputedStyle(mine).animationName,
            };
        }"""
    )
    assert style["dash"] != "none" and style["fill"] == "rgb(28, 28, 36)", style
    assert style["pulse"] == "none", "reduce motion stops the glow's pulse"
    # Switched off again, the glow pulses (the system asks for no reduced motion here).
    # Wait for the server to keep it: a reload before its answer reads the old setting.
    with page.expect_response(lambda r: r.url.endswith("/api/me/access")) as answer:
        page.uncheck("#access-motion")
    assert answer.value.ok
    other.reload()
    other.wait_for_selector(f"{BOARD}[data-movable]:not([data-movable=''])")
    other.wait_for_function("() => !document.documentElement.classList.contains('a11y-motion')")
    pulse = other.evaluate(
        "getComputedStyle(document.querySelector('#main svg.board .checker.movable')).animationName"
    )
    assert pulse == "glow"
