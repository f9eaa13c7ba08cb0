"""The rules panel: strategy tips, beginner mistakes on the board drawing of the step
examples, and the questions players ask, in every language."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import DESKTOP, SCREENSHOTS, screenshot
from tests.web.helpers import set_language, untranslated

PHONE = {"width": 390, "height": 844}
HEADINGS = {
    "en": ("Strategy tips", "Beginner mistakes", "Questions"),
    "id": ("Tips strategi", "Kesalahan pemula", "Pertanyaan"),
    "fi": ("Strategiavinkit", "Aloittelijan virheet", "Kysymyksiä"),
}


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_rules_panel_has_tips_mistakes_and_questions_in_every_language(
    server: Any, pages: Any, size: dict[str, int]
) -> None:
    running = server()
    page = pages.new(running.base, size)
    page.goto("/")
    page.click("#header-rules")
    sheet = page.locator("#rules-sheet")
    tips = sheet.locator("#rules-tips .tip")
    mistakes = sheet.locator("#rules-mistakes .mistake")
    questions = sheet.locator("#rules-faq details.faq")
    name = "phone" if size is PHONE else "desktop"
    for code in ("id", "en", "fi"):
        set_language(page, code)
        titles = [sheet.locator(f"#rules-{s} h3").inner_text() for s in ("tips", "mistakes", "faq")]
        assert tuple(titles) == HEADINGS[code]
        assert tips.count() >= 6 and mistakes.count() >= 6 and questions.count() >= 6
        # Every mistake shows a board (the step examples' drawing) or a notation example.
        for i in range(mistakes.count()):
            item = mistakes.nth(i)
            assert item.locator("svg.board").count() + item.locator("pre").count() == 1
        # Each question opens to its answer.
        for i in range(questions.count()):
            questions.nth(i).locator("summary").click()
            assert questions.nth(i).locator("p").is_visible()
        assert untranslated(page) == [], code
        sheet.locator("#rules-mistakes").scroll_into_view_if_needed()
        screenshot(page, f"rules-mistakes-{code}-{name}")
        for i in range(questions.count()):
            questions.nth(i).locator("summary").click()
    sheet.locator("#rules-tips").scroll_into_view_if_needed()
    screenshot(page, f"rules-tips-{name}")
    sheet.locator("#rules-faq").scroll_into_view_if_needed()
    questions.nth(3).locator("summary").click()
    screenshot(page, f"rules-faq-{name}")

    # A mistake steps from the mistaken play (dashed arrows) to the better one (gold arrows).
    set_language(page, "en")
    point = sheet.locator('[data-mistake="mistake.point"]')
    assert point.locator(".arrow-last").count() == 1 and point.locator(".arrow-hint").count() == 0
    point.locator("button", has_text="Next").click()
    assert point.locator(".arrow-hint").count() == 2 and point.locator(".arrow-last").count() == 0
    assert point.locator(".ex-caption").inner_text().startswith("8/5 6/5")
    for key in ("mistake.bearoff", "mistake.drop"):
        item = sheet.locator(f'[data-mistake="{key}"]')
        item.scroll_into_view_if_needed()
        item.screenshot(path=str(SCREENSHOTS / f"rules-{key.replace('.', '-')}-{name}.png"))
