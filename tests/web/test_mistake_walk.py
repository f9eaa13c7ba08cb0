"""One seam walked through as a player does: a practice match, its review, the mistake in the
daily drill, answered, and the next day (an injected clock) the card is due again."""

from __future__ import annotations

from typing import Any

from bidak.server.shared.clocks import ManualClock
from tests.web.conftest import screenshot
from tests.web.helpers import board_data, dests, movable, play_turn, start_practice, tap
from tests.web.helpers import wait_for_my_move_or_end as wait_turn

PHONE = {"width": 390, "height": 844}
CARD = "#main svg.board"


def answer(page: Any) -> None:
    """Answer the card shown: a play made step by step (the nearest step each time), or the
    first of the cube's two buttons."""
    if page.query_selector("#drill-submit") is None:
        page.click(".drill-actions .btn.primary")
        return
    for _ in range(8):
        if page.is_enabled("#drill-submit"):
            break
        if not board_data(page, "selected"):
            tap(page, movable(page)[0])
        targets = dests(page)
        tap(page, min(targets, key=lambda p: (targets[p], p)))
    page.click("#drill-submit")


def test_a_mistake_goes_from_the_review_to_the_drill_and_comes_back_the_next_day(
    server: Any, pages: Any
) -> None:
    clock = ManualClock()
    running = server(clock=clock, review_workers=1, analysis_waiting=0)
    page = pages.new(running.base, PHONE)
    page.goto("/")
    page.wait_for_selector("#training-card")
    start_practice(page, "beginner", length=1)
    # A few turns played badly on purpose (the farthest step each time), then the match is
    # given up: its review finds the blunders.
    for _ in range(4):
        turn = wait_turn(page)
        if turn == "over":
            break
        if turn == "roll":
            page.click("#btn-roll")
            continue
        play_turn(page, prefer_combined=True)
    if not page.query_selector("#match-over"):
        page.click("#btn-resign")
        page.click("#btn-forfeit")
        page.click("#confirm-forfeit")
    page.wait_for_selector("#match-over")
    page.click("#btn-lobby")
    page.click("#history .history-item [data-review]")
    page.wait_for_selector("#totals", timeout=60000)
    running.call(running.services.training.settle)
    summary = page.request.get("/api/training").json()
    assert summary["cards"] >= 1, summary
    screenshot(page, "walk-review-phone")

    page.click("#btn-back, .match-bar .btn.ghost")
    page.wait_for_selector("#training-due")
    due = int(page.inner_text("#training-due"))
    assert due == summary["due"] >= 1
    page.click("#training-start")
    page.wait_for_selector("#drill-question")
    card = page.get_attribute(CARD, "data-card")
    screenshot(page, "walk-drill-phone")
    answer(page)
    page.wait_for_selector("#drill-verdict")
    assert "This card comes back" in page.inner_text("#drill-returns")
    assert f"{due - 1} due now" in page.inner_text("#drill-figures")
    screenshot(page, "walk-verdict-phone")

    # The next day every card answered today is due again, this one among them.
    running.call(lambda: clock.advance(86400))
    page.goto("/")
    page.reload()
    page.wait_for_selector("#training-due")
    assert int(page.inner_text("#training-due")) == summary["cards"]
    page.click("#training-start")
    page.wait_for_selector("#drill-question")
    seen = {page.get_attribute(CARD, "data-card")}
    for _ in range(summary["cards"] - 1):
        if card in seen:
            break
        answer(page)
        page.click("#drill-next")
        page.wait_for_selector("#drill-question")
        seen.add(page.get_attribute(CARD, "data-card"))
    assert card in seen, (card, seen)
    screenshot(page, "walk-next-day-phone")
