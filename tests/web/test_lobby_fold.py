"""The first thing a newcomer can do, play the bot, is on the first screen: the Practice card's
button is above the fold on phones and on a desktop, once the lobby has every card."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import DESKTOP, screenshot
from tests.web.helpers import set_language

SIZES = [
    pytest.param({"width": 390, "height": 844}, id="390x844"),
    pytest.param({"width": 360, "height": 740}, id="360x740"),
    pytest.param(DESKTOP, id="desktop"),
    pytest.param({"width": 1024, "height": 700}, id="small-desktop"),
]


@pytest.mark.parametrize("size", SIZES)
def test_the_practice_button_is_on_the_first_screen(
    server: Any, pages: Any, size: dict[str, int]
) -> None:
    running = server()
    page = pages.new(running.base, size)
    page.goto("/")
    page.wait_for_selector("#player-name")
    page.wait_for_selector("#check-in")
    set_language(page, "id")  # the longest texts
    page.wait_for_selector("#start-practice")
    box = page.eval_on_selector(
        "#start-practice", "b => { const r = b.getBoundingClientRect(); return [r.top, r.bottom]; }"
    )
    height = size["height"]
    screenshot(page, f"lobby-fold-{size['width']}x{height}")
    assert box[1] <= height, f"Play the bot ends at {box[1]:.0f} px of {height}"


def test_the_tournaments_card_is_on_a_phone_s_first_screen(server: Any, pages: Any) -> None:
    running = server()
    page = pages.new(running.base, {"width": 390, "height": 844})
    page.goto("/")
    page.wait_for_selector("#check-in")
    set_language(page, "id")
    page.wait_for_selector("#tournaments-card h2, #tournaments-card h3")
    top = page.eval_on_selector(
        "#tournaments-card", "c => c.querySelector('h2, h3').getBoundingClientRect().bottom"
    )
    assert top <= 844, f"the Tournaments card's title is at {top:.0f} px of 844"


@pytest.mark.parametrize("size", [DESKTOP, {"width": 1440, "height": 900}], ids=["1280", "1440"])
def test_the_desktop_columns_are_balanced(server: Any, pages: Any, size: dict[str, int]) -> None:
    """No column holds most of the cards while the others are short: the columns' heights
    (their cards, once the lobby has them all) differ by less than a third of the tallest."""
    running = server()
    page = pages.new(running.base, size)
    page.goto("/")
    page.wait_for_selector("#check-in")
    page.wait_for_selector("#history-card")
    set_language(page, "id")
    page.wait_for_selector("#tournaments-card")
    heights = page.eval_on_selector_all(
        ".lobby-grid > .col",
        """cols => cols.map(c => {
             const cards = [...c.children].map(x => x.getBoundingClientRect());
             return cards.length ? cards[cards.length - 1].bottom - cards[0].top : 0;
           })""",
    )
    counts = page.eval_on_selector_all(
        ".lobby-grid > .col", "cols => cols.map(c => c.children.length)"
    )
    screenshot(page, f"lobby-columns-{size['width']}")
    assert len(heights) == 3
    assert max(heights) - min(heights) < max(heights) / 3, (heights, counts)
    assert max(counts) - min(counts) <= 2, counts
    top = page.eval_on_selector("#tournaments-card", "c => c.getBoundingClientRect().top")
    assert top < size["height"] - 60, f"the Tournaments card begins at {top:.0f} px"
