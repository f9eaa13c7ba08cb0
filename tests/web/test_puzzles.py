"""A puzzle at phone size: the training card leads to the puzzles, a theme is chosen, the puzzle
is answered on the board, and the verdict says right and how the puzzle rating moved; the account
page has the switch that keeps one's positions out of the puzzles."""

from __future__ import annotations

from functools import partial
from typing import Any

from bidak.formats.ids import read_any_id
from bidak.server.training import queries
from bidak.server.training.service import plays_of
from tests.web.helpers import BOARD, tap
from tests.web.layout import layout_problems
from tests.web.test_training import keep, opening_xgid

BLOCKS = (
    "#puzzle-themes",
    "#puzzle-figures",
    ".drill-tags",
    ".drill-board",
    ".drill-actions",
    "#puzzle-verdict",
)


def clear_card(player_id: str, match_id: str) -> dict[str, Any]:
    """A banked 3-1 at the start whose best play, 8/5 6/5, beats every other by 0.1 or more."""
    xgid = opening_xgid((3, 1))
    plays = plays_of(read_any_id(xgid).position, (3, 1))
    ranking = [
        {
            "result": p["result"],
            "notation": p["notation"],
            "loss": 0.0 if p["notation"] == "8/5 6/5" else 0.1 + i / 100,
        }
        for i, p in enumerate(plays)
    ]
    return {
        "player_id": player_id,
        "match_id": match_id,
        "game": 1,
        "turn": 1,
        "kind": "checker",
        "seat": 0,
        "xgid": xgid,
        "played": "24/21 24/23",
        "best": "8/5 6/5",
        "loss": 0.12,
        "depth": 1,
        "phase": "opening",
        "theme": "opening",
        "analysis": {"dice": [3, 1], "ranking": ranking},
        "schedule": {"state": 1},
        "due": 0.0,
        "created_at": 0.0,
    }


def overlaps(page: Any) -> list[str]:
    """Blocks of the puzzle page whose boxes overlap, and anything wider than the screen."""
    found: list[str] = page.evaluate(
        """(selectors) => {
            const boxes = selectors.map((s) => [s, document.querySelector(s)])
              .filter(([, el]) => el && el.offsetParent !== null)
              .map(([s, el]) => [s, el.getBoundingClientRect()]);
            const out = [];
            for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
              const [a, ra] = boxes[i], [b, rb] = boxes[j];
              const x = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
              const y = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
              if (x > 1 && y > 1) out.push(`${a} overlaps ${b}`);
            }
            const root = document.documentElement;
            if (root.scrollWidth > window.innerWidth) out.push("wider than the screen");
            for (const el of document.querySelectorAll('#main button, #main a.btn')) {
              const cut = el.scrollWidth > el.clientWidth + 1;
              if (el.offsetParent !== null && cut) out.push(`cut: ${el.id || el.textContent}`);
            }
            return out;
        }""",
        list(BLOCKS),
    )
    return found


def test_a_puzzle_is_answered_at_phone_size(server: Any, pages: Any) -> None:
    running = server()
    # Somebody else's reviewed match left a clear mistake: it is a puzzle for everybody but them.
    source = pages.new(running.base)
    source.goto("/")
    source.wait_for_selector("#training-card")
    ana = source.request.get("/api/me").json()["id"]
    room = source.request.post(
        "/api/rooms",
        data={"kind": "practice", "length": 3, "level": "beginner"},
        headers={"Origin": running.base},
    ).json()
    match_id = source.request.get(f"/api/rooms/{room['code']}").json()["match_id"]
    db = running.services.db
    assert (
        running.call(lambda: db.write(partial(queries.bank, cards=[clear_card(ana, match_id)])))
        == 1
    )

    page = pages.new(running.base)
    page.goto("/")
    page.wait_for_selector("#training-puzzles")
    page.click("#training-puzzles")
    page.wait_for_selector("#puzzle-theme-opening")
    assert "Rating 1500" in page.inner_text("#puzzle-figures")
    page.click("#puzzle-theme-opening")
    page.wait_for_selector("#puzzle-theme-opening.on")
    page.wait_for_selector("#drill-question")
    assert "3-1" in page.inner_text("#drill-question")
    assert page.inner_text("#puzzle-theme") == "Opening"
    assert page.is_disabled("#drill-submit")
    assert overlaps(page) == []
    keep(page, "puzzle-question-phone")

    tap(page, 8)
    tap(page, 5)
    tap(page, 6)
    tap(page, 5)
    page.wait_for_selector("#drill-submit:not([disabled])")
    page.click("#drill-submit")
    page.wait_for_selector("#puzzle-verdict")
    assert page.inner_text("#puzzle-verdict h3") == "Right!"
    assert page.inner_text("#puzzle-best") == "8/5 6/5"
    assert "1 of 1 right" in page.inner_text("#puzzle-figures")
    change = page.inner_text("#puzzle-rating-change")
    assert change.startswith("(+") and int(page.inner_text("#puzzle-rating-after")) > 1500
    share = page.get_attribute("#puzzle-share", "href")
    assert share is not None and share.startswith("/api/positions/share.png?xgid=XGID")
    picture = page.request.get(share)
    assert picture.ok and picture.body()[:8] == b"\x89PNG\r\n\x1a\n"
    page.locator("#puzzle-verdict").scroll_into_view_if_needed()
    assert overlaps(page) == []
    keep(page, "puzzle-verdict-phone")

    # None left: answered once, never served again.
    page.click("#puzzle-next")
    page.wait_for_selector("#puzzle-empty")
    assert page.locator(BOARD).count() == 0

    # The source switches sharing off on the account page: the puzzle leaves the pool.
    source.goto("/#/account")
    source.wait_for_selector("#puzzle-share:not([disabled])")
    assert source.is_checked("#puzzle-share")
    source.locator("#account-puzzles").scroll_into_view_if_needed()
    keep(source, "puzzle-sharing-account-phone")
    source.uncheck("#puzzle-share")
    source.wait_for_function("() => !document.querySelector('#puzzle-share').checked")
    source.wait_for_selector("#puzzle-share:not([disabled])")
    figures = page.request.get("/api/puzzles").json()
    assert figures["themes"] == {} and figures["answered"] == 1
    problems, _ = layout_problems(source, [])
    assert problems == []
