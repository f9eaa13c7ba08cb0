"""What a player relies on while the table moves on without them: a resignation sent while the
bot was playing still ends the match, and the move list is whole after a reload and for a
spectator who arrives in the middle of a match."""

from __future__ import annotations

import json
from typing import Any

from tests.web.conftest import DESKTOP, PHONE
from tests.web.helpers import play_turn, start_practice, wait_for_my_move_or_end

LOG_LINES = "#log li"


def test_resigning_while_the_bot_plays_ends_the_match(server: Any, pages: Any) -> None:
    """The resignation names the table the player saw; the bot has played since (the messages
    saying so are held back until the resignation is on its way): it still ends the match."""
    running = server()
    page = pages.new(running.base, PHONE)
    held: list[str] = []
    state = {"hold": False, "newest": 0, "sent": -1}

    def route(ws: Any) -> None:
        to_server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "intent" and data["action"]["type"] == "forfeit":
                state["sent"] = data.get("version", -1)
                state["hold"] = False
                for item in held:
                    ws.send(item)
                held.clear()
            to_server.send(message)

        def from_server(message: str | bytes) -> None:
            data = json.loads(message)
            played = [e["event"] for e in data.get("events", []) if e["event"]["type"] == "played"]
            if state["hold"] and not any(e["player"] == 0 for e in played):
                state["newest"] = max(state["newest"], data.get("version", 0))
                held.append(str(message))
                return
            ws.send(message)

        ws.on_message(from_page)
        to_server.on_message(from_server)

    page.route_web_socket("**/ws?room=*", route)  # the table's socket
    page.goto("/")
    start_practice(page, "beginner", length=3, cube=True)
    _to_my_play(page)
    state["hold"] = True  # the player's own play comes through, the bot's answer waits
    play_turn(page)
    page.click("#btn-resign")
    page.click("#btn-forfeit")
    page.click("#confirm-forfeit")
    page.wait_for_selector("#match-over")
    assert page.inner_text("#match-over .big-score") == "0 – 3"
    assert 0 < state["sent"] < state["newest"], state  # it was sent for an older table


def _to_my_play(page: Any) -> None:
    """Roll when the Roll button waits, until the player has checkers to move."""
    while (state := wait_for_my_move_or_end(page)) == "roll":
        page.click("#btn-roll")
        page.wait_for_function("() => !document.querySelector('#btn-roll:not([disabled])')")
    assert state == "move", state


def _log(page: Any) -> list[str]:
    lines: list[str] = page.locator(LOG_LINES).all_inner_texts()
    return lines


def test_the_move_list_is_whole_after_a_reload_and_for_a_spectator(server: Any, pages: Any) -> None:
    running = server()
    page = pages.new(running.base, DESKTOP)
    page.goto("/")
    start_practice(page, "beginner", length=3, cube=False)
    for _ in range(2):
        _to_my_play(page)
        play_turn(page)
    assert wait_for_my_move_or_end(page) != "over"
    before = _log(page)
    assert len(before) >= 6, before

    page.reload()
    page.wait_for_function("n => document.querySelectorAll('#log li').length >= n", arg=len(before))
    assert _log(page) == before

    # Someone with the link arrives in the middle of the match: they see the same list.
    watcher = pages.new(running.base, PHONE)
    watcher.goto(page.url)
    watcher.wait_for_selector("#main svg.board")
    watcher.wait_for_function(
        "n => document.querySelectorAll('#log li').length >= n", arg=len(before)
    )
    assert len(_log(watcher)) == len(before)
