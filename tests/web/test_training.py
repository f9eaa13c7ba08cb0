"""The daily drill at phone size: the lobby shows the cards due and the streak, the drill shows a
card from the blunder bank, the player answers on the board, and the verdict says the equity lost.
"""

from __future__ import annotations

from typing import Any

from bidak.formats import GameState, MatchInfo
from bidak.formats.xgid import to_xgid
from bidak.rules import Position
from bidak.server.training import bank_review
from tests.web.conftest import screenshot
from tests.web.helpers import BOARD, tap


def opening_xgid(dice: tuple[int, int]) -> str:
    info = MatchInfo(
        cube_value=1,
        cube_owner=None,
        on_roll=0,
        crawford=False,
        game_state=GameState.PLAYING,
        turn=0,
        double_offered=False,
        dice=dice,
        length=3,
        score=(0, 0),
    )
    return to_xgid(Position.initial(), info)


def keep(page: Any, name: str) -> None:
    """A screenshot in artifacts/screenshots/; copies of a run's are committed in
    tests/web/screenshots/ for a reviewer (by hand: a test run changes no committed file)."""
    screenshot(page, name)


def test_a_drill_card_is_answered_on_the_board_at_phone_size(server: Any, pages: Any) -> None:
    running = server()
    page = pages.new(running.base)
    page.goto("/")
    page.wait_for_selector("#training-card")
    me = page.request.get("/api/me").json()["id"]
    room = page.request.post(
        "/api/rooms",
        data={"kind": "practice", "length": 3, "level": "beginner"},
        headers={"Origin": running.base},
    ).json()
    match_id = page.request.get(f"/api/rooms/{room['code']}").json()["match_id"]
    # The review of that match said: with 3-1 at the start, 24/21 24/23 instead of 8/5 6/5.
    review = {
        "games": [
            {
                "decisions": [
                    {
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
                ]
            }
        ]
    }
    services = running.services
    added = running.call(
        lambda: bank_review(
            services.db,
            services.reviews.run,
            services.clock.now(),
            match_id,
            review,
            {0: me},
            "1ply",
        )
    )
    assert added == 1

    page.goto("/")
    page.wait_for_selector("#training-due")
    assert page.inner_text("#training-due") == "1"
    assert page.inner_text("#training-streak") == "0"
    page.locator("#training-card").scroll_into_view_if_needed()
    keep(page, "training-lobby-phone")

    page.click("#training-start")
    page.wait_for_selector("#drill-question")
    assert "3-1" in page.inner_text("#drill-question")
    assert page.inner_text("#drill-theme") == "Opening"
    assert page.is_disabled("#drill-submit")
    keep(page, "training-drill-phone")

    # Make the engine's play: 8/5 and 6/5.
    tap(page, 8)
    tap(page, 5)
    tap(page, 6)
    tap(page, 5)
    page.wait_for_selector("#drill-submit:not([disabled])")
    page.click("#drill-submit")
    page.wait_for_selector("#drill-verdict")
    assert page.inner_text("#drill-verdict h3") == "Best play!"
    assert "0.000" in page.inner_text("#drill-loss")
    assert page.inner_text("#drill-best") == "8/5 6/5"
    assert "streak 1" in page.inner_text("#drill-figures")
    # Answered well at first sight, FSRS's first learning step brings it back in ten minutes:
    # the verdict says so, and the card no longer counts as due.
    assert page.inner_text("#drill-returns") == "This card comes back in 10 minutes."
    assert "0 due now" in page.inner_text("#drill-figures")
    share = page.get_attribute("#drill-share", "href")
    assert share is not None and share.startswith("/api/positions/share.svg?xgid=XGID")
    picture = page.request.get(share)
    assert picture.ok and picture.headers["content-type"].startswith("image/svg+xml")
    keep(page, "training-verdict-phone")

    # Nothing more is due now.
    page.click("#drill-next")
    page.wait_for_selector("#drill-empty")
    page.click("#drill-back")
    page.wait_for_selector("#training-streak")
    page.wait_for_function("() => document.querySelector('#training-streak').textContent === '1'")
    # The lobby counts it no more until it comes back.
    assert page.inner_text("#training-due") == "0"
    assert page.locator(BOARD).count() == 0
