"""Rolling by tapping the board (rules guide: tap the board or press the roll button) or with R;
a tap never doubles, never rolls twice, and a tap meant for a checker never rolls."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.web.conftest import DESKTOP, screenshot
from tests.web.helpers import BOARD, board_data, movable, start_practice, tap

PHONE = {"width": 390, "height": 844}


class Intents:
    """The intents the page sends over its WebSocket, in order."""

    def __init__(self, page: Any) -> None:
        self.sent: list[dict[str, Any]] = []
        page.on("websocket", lambda ws: ws.on("framesent", self._frame))

    def _frame(self, payload: str | bytes) -> None:
        message = json.loads(payload)
        if message.get("type") == "intent":
            self.sent.append(message)

    def actions(self, since: int = 0) -> list[str]:
        return [m["action"]["type"] for m in self.sent[since:]]


def my_roll_decision(page: Any) -> None:
    """Play on (taking any double) until the player may roll or double."""
    for _ in range(60):
        page.wait_for_function(
            """() => document.querySelector('#btn-roll:not([disabled])')
              || document.getElementById('btn-take')
              || document.querySelector('#main svg.board').dataset.movable
              || document.getElementById('match-over')"""
        )
        if page.query_selector("#btn-roll:not([disabled])"):
            return
        assert not page.query_selector("#match-over"), "the match ended before a roll decision"
        if page.query_selector("#btn-take"):
            page.click("#btn-take")
            page.wait_for_selector("#btn-take", state="detached")
            continue
        make_play(page)
        send(page)
    raise AssertionError("no roll decision came")


def make_play(page: Any) -> None:
    """Tap steps until OK can be pressed (without pressing it)."""
    for _ in range(8):
        if page.is_enabled("#btn-ok"):
            return
        if not board_data(page, "selected"):
            tap(page, movable(page)[0])
        targets = [int(p.split(":")[0]) for p in board_data(page, "dests").split(",")]
        tap(page, min(targets))


def send(page: Any, key: bool = False) -> None:
    version = board_data(page, "version")
    if key:
        page.keyboard.press("Enter")
    else:
        page.click("#btn-ok")
    page.wait_for_function(
        "v => document.querySelector('#main svg.board').dataset.version !== v", arg=version
    )


def wait_for_dice(page: Any) -> None:
    page.wait_for_function("() => document.querySelector('#main svg.board').dataset.movable")


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_tapping_the_board_rolls_and_never_doubles(
    server: Any, pages: Any, size: dict[str, int]
) -> None:
    phone = size is PHONE
    running = server(bot_delay=0.05)
    page = pages.new(running.base, size, touch=phone)
    intents = Intents(page)
    page.goto("/")
    start_practice(page, "beginner", 3, cube=True)

    # Roll or double: the board says a tap rolls. A key pressed while reading the rules does
    # nothing at the table.
    my_roll_decision(page)
    before = len(intents.sent)
    assert page.is_visible("#btn-double")
    assert "tap the board" in page.inner_text("#status-line")
    assert "tap-roll" in (page.get_attribute(BOARD, "class") or "")
    assert page.is_visible(".tap-roll-hint")
    screenshot(page, f"tap-to-roll-{'phone' if phone else 'desktop'}")
    page.click("#header-rules")
    page.keyboard.press("r")
    page.keyboard.press("Escape")
    assert intents.actions(before) == []

    # A tap (or a click) on the board rolls, with the version of the table it was made on.
    version = int(board_data(page, "version"))
    if phone:
        page.tap(BOARD)
    else:
        page.click(BOARD)
    wait_for_dice(page)
    assert page.is_hidden(".tap-roll-hint")
    assert intents.sent[before:] == [
        {"type": "intent", "action": {"type": "roll"}, "version": version}
    ]
    assert page.evaluate("window.__bidak.view.table.cube.value") == 1

    # While moving, a tap picks a checker and sends nothing.
    tap(page, movable(page)[0])
    assert board_data(page, "selected")
    assert intents.actions(before) == ["roll"]

    # A press that began before the table changed never rolls: press on the board while
    # moving, send the play with Enter, and let go only once the roll decision is back.
    # (Chromium drops the click when the pressed element was redrawn, so the events are sent
    # to the board itself, as for a press on its margin.)
    make_play(page)
    page.dispatch_event(BOARD, "pointerdown", {"isPrimary": True})
    send(page, key=True)
    assert intents.actions(before) == ["roll", "play"]
    my_roll_decision(page)
    before = len(intents.sent)
    page.dispatch_event(BOARD, "click")
    assert page.evaluate("window.__bidak.view.sending") is False
    assert intents.actions(before) == []
    assert page.is_enabled("#btn-roll")

    # Two quick taps roll once; on the desktop, R rolls.
    if phone:
        page.tap(BOARD)
        page.tap(BOARD)
    else:
        page.keyboard.press("r")
        page.keyboard.press("r")
    wait_for_dice(page)
    assert intents.actions(before) == ["roll"]
    assert "double" not in intents.actions()
    assert page.evaluate("window.__bidak.view.table.cube.offered") is None
