"""Play by keyboard (issue 40): a whole practice 1-point match against the Beginner, from the
lobby to the match's end and its review, with keys alone: not one pointer event reaches the
page."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import DESKTOP
from tests.web.helpers import BOARD, board_data, wait_for_my_move_or_end

COUNT_POINTERS = """() => {
    window.__pointers = 0;
    for (const type of ['pointerdown', 'mousedown', 'touchstart']) {
        document.addEventListener(type, () => { window.__pointers += 1; }, true);
    }
}"""


def tab_to(page: Any, selector: str) -> None:
    """Press Tab until the element `selector` has the focus (as a keyboard user does)."""
    for _ in range(120):
        if page.evaluate("s => document.activeElement?.matches(s) ?? false", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def play_by_keys(page: Any) -> None:
    """Arrow keys to a checker that can move and Enter, arrow keys to a point it reaches and
    Enter, until the play is whole; then Enter sends it."""
    for _ in range(12):
        if page.is_enabled("#btn-ok"):
            break
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("Enter")
    assert page.is_enabled("#btn-ok"), board_data(page, "made")
    version = board_data(page, "version")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "v => document.querySelector('#main svg.board').dataset.version !== v", arg=version
    )


def test_a_whole_practice_match_is_played_with_the_keyboard_alone(server: Any, pages: Any) -> None:
    running = server(review_workers=1, analysis_waiting=0)
    page = pages.new(running.base, DESKTOP, touch=False)
    page.add_init_script(f"({COUNT_POINTERS})()")
    page.goto("/")
    page.wait_for_selector("#start-practice")
    tab_to(page, '[data-name="level"] [data-value="beginner"]')
    page.keyboard.press("Enter")
    tab_to(page, '[data-name="practice-length"] [data-value="1"]')
    page.keyboard.press("Space")
    tab_to(page, "#start-practice")
    page.keyboard.press("Enter")
    page.wait_for_selector(BOARD)
    page.evaluate("document.activeElement?.blur()")  # the keys go to the table, not a button

    turns = 0
    while (state := wait_for_my_move_or_end(page, timeout=30000)) != "over":
        assert state == "move", state  # a 1-point match has no cube: rolls are automatic
        play_by_keys(page)
        turns += 1
        assert turns < 200
    assert page.is_visible("#match-over")
    assert page.inner_text("#announcer").strip(), "the live region said the last event"
    assert page.inner_text("#score") in ("1 – 0", "0 – 1")
    # The dialog holds the focus; Tab reaches its way back to the lobby.
    assert page.evaluate("document.activeElement.closest('#match-over') !== null")
    tab_to(page, "#btn-lobby")
    page.keyboard.press("Enter")
    page.wait_for_selector("#start-practice")

    # The review, decision to decision by the arrow keys; each one said in the live region.
    page.wait_for_selector("#history .history-item [data-review]")
    tab_to(page, "#history .history-item [data-review]")
    page.keyboard.press("Enter")
    page.wait_for_selector("#move-list .move", timeout=60000)
    assert "Pip count" in (page.get_attribute(BOARD, "aria-label") or "")
    page.evaluate("document.activeElement?.blur()")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector('#move-list .move.on[data-index="1"]')
    said = page.inner_text("#announcer p:last-child").strip()
    shown = page.inner_text('#move-list .move.on[data-index="1"]')
    assert said == ", ".join(line.strip() for line in shown.splitlines() if line.strip()), said
    assert page.evaluate("window.__pointers") == 0, "a pointer event reached the page"
