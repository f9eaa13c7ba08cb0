"""A guest plays a whole 1-point match against the Beginner bot by tapping checkers and points."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import DESKTOP, PHONE, screenshot
from tests.web.helpers import board_data, play_turn, start_practice, wait_for_my_move_or_end
from tests.web.test_i18n import check_all_languages


def test_a_guest_plays_a_whole_one_point_match_against_the_beginner_bot(
    server: Any, pages: Any
) -> None:
    running = server(review_workers=1, analysis_waiting=0)
    page = pages.new(running.base, PHONE)
    page.goto("/")
    page.wait_for_selector("#guest-warning")  # rules.md 11
    page.click("#rename")
    page.fill("#name-input", "Budi")
    page.click("#name-save")
    page.wait_for_selector("#player-name:text-is('Budi')")
    page.wait_for_timeout(2700)  # let the toast go
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "lobby-phone")
    start_practice(page, "beginner", 1)

    turns = 0
    while True:
        state = wait_for_my_move_or_end(page, timeout=30000)
        if state == "over":
            break
        assert state == "move", state  # no cube in a 1-point match: rolls are automatic
        play_turn(page)
        turns += 1
        if turns == 3:
            screenshot(page, "table-phone")
        assert turns < 200
    dialog = page.locator("#match-over")
    assert dialog.is_visible()
    score = page.inner_text("#score")
    assert score in ("1 – 0", "0 – 1")
    page.click("#btn-lobby")
    page.wait_for_selector("#history .history-item")
    item = page.locator("#history .history-item").first
    assert "1-point match" in item.inner_text()
    assert item.locator("[data-review]").count() == 1
    page.set_viewport_size(DESKTOP)
    screenshot(page, "lobby-desktop")
    page.set_viewport_size(PHONE)

    # The review of the finished match, from the history, while someone else's review holds
    # the engine: the page waits (503, Retry-After) and shows the review once it is free.
    release = running.occupy(running.services.reviews)
    with page.expect_response(lambda r: "/review" in r.url) as refused:
        item.locator("[data-review]").click()
    assert refused.value.status == 503
    page.wait_for_selector(".spinner")
    assert page.locator("#move-list").count() == 0
    release.set()
    page.wait_for_selector("#move-list .move", timeout=60000)
    # The browser logs the refused request itself; nothing else may have gone wrong.
    pages.errors[:] = [e for e in pages.errors if "status of 503" not in e]
    assert page.locator("#totals tbody tr").count() == 2
    assert "Engine depth 2ply" in page.inner_text("#main")  # the engine's real verdict, said
    assert page.locator("#equity-graph .graph-line").count() == 1
    assert page.get_attribute("#export-mat", "href").endswith("/mat")
    assert page.input_value("#xgid").startswith("XGID=")
    # The decision's position as a picture for a chat app: the server draws it from the XGID.
    picture = page.request.get(page.get_attribute("#review-share", "href"))
    assert picture.ok and picture.body().startswith(b"\x89PNG"), picture.status
    first = board_data(page, "position")
    page.click("#review-next")
    page.wait_for_selector('#move-list .move.on[data-index="1"]')
    assert board_data(page, "position") != first
    page.keyboard.press("ArrowRight")
    page.wait_for_selector('#move-list .move.on[data-index="2"]')
    screenshot(page, "review-phone")
    check_all_languages(page)
    page.set_viewport_size(DESKTOP)
    screenshot(page, "review-desktop")
    mat = page.request.get(page.get_attribute("#export-mat", "href"))
    assert mat.ok and "Game 1" in mat.text()
