"""Practice help and the table's resilience: hints with arrows, the keyboard, the rules panel
with its examples, and a dropped connection that comes back by itself."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import DESKTOP, PHONE, screenshot
from tests.web.helpers import board_data, start_practice, wait_for_my_move_or_end


def test_hints_rules_and_reconnecting(server: Any, pages: Any) -> None:
    running = server(bot_delay=0.05)
    page = pages.new(running.base, PHONE, reduced_motion="no-preference")
    page.goto("/")
    start_practice(page, "beginner", 3, cube=True)

    saw_cube_hint = False
    for _ in range(10):
        state = wait_for_my_move_or_end(page)
        if state == "roll":
            page.click("#btn-hint")
            page.wait_for_selector("#cube-hint")
            saw_cube_hint = True
            page.keyboard.press("r")  # R rolls
            page.wait_for_function(
                "() => document.querySelector('#main svg.board').dataset.movable"
            )
            continue
        assert state == "move"
        break
    page.click("#btn-hint")
    page.wait_for_selector("#hint-list .hint-item")
    assert page.locator("#main svg.board .arrow-hint").count() >= 1
    shown = page.inner_text("#hint-list")
    assert "+" in shown or "\u2212" in shown, "each equity is written with its sign"
    page.locator("#hint-panel").scroll_into_view_if_needed()
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "hint-phone")
    page.set_viewport_size(DESKTOP)
    screenshot(page, "hint-desktop")
    page.set_viewport_size(PHONE)
    assert saw_cube_hint or page.locator("#hint-list .hint-item").count() >= 1

    # The keyboard: type a point number to pick a checker; Escape lets it go.
    first = board_data(page, "movable").split(",")[0]
    if first not in ("0", "25"):
        for digit in first:
            page.keyboard.press(digit)
        page.wait_for_function(
            "p => document.querySelector('#main svg.board').dataset.selected === p", arg=first
        )
        page.keyboard.press("Escape")
        assert board_data(page, "selected") == ""

    # The rules are readable during play, with step-by-step examples.
    page.click("#header-rules")
    sheet = page.locator("#rules-sheet")
    sheet.wait_for()
    examples = sheet.locator('figure.example[data-example^="ex."]')
    assert examples.count() == 3
    run = examples.nth(0)
    assert run.locator(".ex-counter").inner_text() == "1 / 3"
    run.locator("button", has_text="Next").click()
    assert run.locator(".ex-counter").inner_text() == "2 / 3"
    assert (
        run.locator("svg.board").get_attribute("data-position").split("|")[0].split(",")[17] == "1"
    )
    screenshot(page, "rules-phone")
    page.keyboard.press("Escape")
    assert sheet.count() == 0

    # A lost connection shows a banner and comes back with the same table.
    before = board_data(page, "position")
    page.evaluate("window.__bidak.drop()")
    page.wait_for_selector("#conn-banner:not(.hidden)")
    page.wait_for_selector("#conn-banner", state="hidden")
    page.wait_for_function(
        "p => document.querySelector('#main svg.board').dataset.position === p", arg=before
    )
