"""The drill by keyboard (issue 40): a card answered with point numbers and Enter, the board's
accessible name saying the position as it changes; or by typing the play in notation."""

from __future__ import annotations

from typing import Any

from bidak.server.training import bank_review
from tests.web.a11y import audit, lines, prepare
from tests.web.conftest import DESKTOP
from tests.web.helpers import BOARD
from tests.web.test_training import opening_xgid


def bank_opening_card(server: Any, pages: Any) -> Any:
    """A guest with one drill card due: the opening 3-1, best 8/5 6/5; the drill open."""
    running = server()
    page = pages.new(running.base, DESKTOP, touch=False)
    page.goto("/")
    page.wait_for_selector("#training-card")
    me = page.request.get("/api/me").json()["id"]
    room = page.request.post(
        "/api/rooms",
        data={"kind": "practice", "length": 3, "level": "beginner"},
        headers={"Origin": running.base},
    ).json()
    match_id = page.request.get(f"/api/rooms/{room['code']}").json()["match_id"]
    decision = {
        "kind": "checker",
        "game": 1,
        "turn": 1,
        "player": 0,
        "counted": True,
        "xgid": opening_xgid((3, 1)),
        "dice": [3, 1],
        "played": "24/21 24/23",
        "best": "8/5 6/5",
        "loss": 0.12,
    }
    services = running.services
    added = running.call(
        lambda: bank_review(
            services.db,
            services.reviews.run,
            services.clock.now(),
            match_id,
            {"games": [{"decisions": [decision]}]},
            {0: me},
            "1ply",
        )
    )
    assert added == 1
    page.goto("/#/drill")
    page.wait_for_selector("#drill-question")
    return page


def test_a_drill_card_is_answered_by_keys(server: Any, pages: Any) -> None:
    page = bank_opening_card(server, pages)
    assert "Point 6: 5 of yours" in (page.get_attribute(BOARD, "aria-label") or "")
    for key in "8565":  # 8 then 5, 6 then 5
        page.keyboard.press(key)
    label = page.get_attribute(BOARD, "aria-label") or ""
    assert "Point 5: 2 of yours" in label and "Point 6: 4 of yours" in label, label
    assert page.is_enabled("#drill-submit")
    page.keyboard.press("Enter")
    page.wait_for_selector("#drill-verdict")


def test_a_drill_card_is_answered_by_typing_the_play(server: Any, pages: Any) -> None:
    page = bank_opening_card(server, pages)
    page.keyboard.press("t")
    page.keyboard.type("13/7")
    page.keyboard.press("Enter")
    error = page.inner_text("#typed-error")
    assert error.startswith("13/7 is not a legal play of 3-1. Legal plays include:"), error
    prepare(page)  # axe, for the documents from here on: the drill with a card, refused
    page.reload()
    page.wait_for_selector("#drill-question")
    page.keyboard.press("t")
    page.keyboard.type("13/7")
    page.keyboard.press("Enter")
    page.wait_for_selector("#typed-error:not(:empty)")
    found = audit(page, "drill: a typed play refused")
    assert not found, lines(found)
    page.fill("#typed-input", "8/5 6/5")
    page.keyboard.press("Enter")
    page.wait_for_selector("#drill-verdict")
