"""A player who meets a server limit is told so, in their language, and can go on after it."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import PHONE, screenshot
from tests.web.helpers import start_practice, wait_for_my_move_or_end


def test_starting_too_many_games_at_once_says_to_wait(server: Any, pages: Any) -> None:
    running = server(rooms_per_minute=1)
    page = pages.new(running.base, PHONE)
    page.goto("/")
    page.select_option("#lang", "fi")
    start_practice(page, "beginner", length=None)
    page.goto("/#/")
    page.wait_for_selector("#start-practice")
    with page.expect_response(lambda r: r.url.endswith("/api/rooms")) as refused:
        page.click("#start-practice")
    assert refused.value.status == 429
    page.wait_for_selector(".toast-error")
    assert "minuutin päästä" in page.inner_text(".toast-error")
    screenshot(page, "too-many-games-phone")
    assert page.locator("#main svg.board").count() == 0, "no table for a refused game"
    # The browser logs the refused request itself; nothing else may have gone wrong.
    pages.errors[:] = [e for e in pages.errors if "status of 429" not in e]


def test_a_hint_while_the_engine_is_busy_says_so_and_the_next_one_comes(
    server: Any, pages: Any
) -> None:
    running = server(hint_workers=1, analysis_waiting=0)
    page = pages.new(running.base, PHONE)
    page.goto("/")
    start_practice(page, "beginner", 1)
    assert wait_for_my_move_or_end(page) == "move"

    release = running.occupy(running.services.hints)
    page.click("#btn-hint")
    page.wait_for_selector("#hint-error")
    assert "busy" in page.inner_text("#hint-error")
    page.locator("#hint-error").scroll_into_view_if_needed()
    screenshot(page, "hint-busy-phone")
    release.set()
    page.click("#btn-hint")
    page.wait_for_selector("#hint-list .hint-item")
    pages.errors[:] = [e for e in pages.errors if "status of 503" not in e]
