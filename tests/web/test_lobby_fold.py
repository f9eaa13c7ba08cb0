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
