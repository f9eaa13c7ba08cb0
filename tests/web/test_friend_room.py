"""Two browsers play a friend room: a combined move, undo and OK, a double taken and a
redouble dropped, a clock that runs out (auto-play takes over, then the player takes back
control), and a reload in the middle of a turn."""

from __future__ import annotations

from typing import Any

from bidak.server.shared.clocks import ManualClock
from tests.web.conftest import DESKTOP, PHONE, screenshot
from tests.web.helpers import board_data, dests, movable, play_turn, tap, untranslated


def mover(pages: list[Any], timeout: float = 20000) -> Any:
    """The page whose player must move checkers now."""
    for _ in range(int(timeout / 100)):
        for page in pages:
            if movable(page):
                return page
        pages[0].wait_for_timeout(100)
    raise AssertionError("nobody can move")


def roller(pages: list[Any], timeout: float = 20000) -> Any:
    """The page that shows the Roll button (a player who may double)."""
    for _ in range(int(timeout / 100)):
        for page in pages:
            if page.query_selector("#btn-roll"):
                return page
        pages[0].wait_for_timeout(100)
    raise AssertionError("nobody may roll")


def other(pages: list[Any], page: Any) -> Any:
    return pages[1] if page is pages[0] else pages[0]


def combined_move(page: Any) -> None:
    """Tap a checker that can use both dice, then its final point (rules.md 10)."""
    for point in movable(page):
        tap(page, point)
        combined = [p for p, n in dests(page).items() if n == 2]
        if combined:
            tap(page, combined[0])
            return
        tap(page, point)  # tap again: deselect
    raise AssertionError("no checker can use both dice")


def test_two_players_play_a_friend_room(server: Any, pages: Any) -> None:
    clock = ManualClock()
    running = server(clock=clock)
    alice = pages.new(running.base, PHONE)
    bob = pages.new(running.base, DESKTOP)
    both = [alice, bob]

    alice.goto("/")
    alice.click('[data-name="friend-length"] [data-value="3"]')
    alice.click('[data-name="friend-cube"] [data-value="true"]')
    alice.click('[data-name="time"] [data-value="30"]')
    alice.click('[data-name="opening"] [data-value="higher"]')
    alice.click('[data-name="timeout"] [data-value="autoplay"]')
    alice.click("#create-friend")
    link = alice.input_value("#invite-link")
    assert "/#/room/" in link
    screenshot(alice, "invite-phone")
    assert untranslated(alice) == []
    sockets: list[str] = []
    bob.on("websocket", lambda socket: sockets.append(socket.url))
    bob.goto(link)
    alice.wait_for_selector("#main svg.board")
    bob.wait_for_selector("#main svg.board")
    # The table's socket names its room, for a load balancer that routes by room.
    code = link.rsplit("/", 1)[-1]
    assert any(url.endswith(f"/ws?room={code}") for url in sockets), sockets

    # The opening: the starter taps a checker and the final point of both dice.
    first = mover(both)
    assert first.inner_text("#seat-bottom .clock") in ("0:30", "0:29")
    combined_move(first)
    assert len(board_data(first, "made").split()) == 2
    assert first.is_enabled("#btn-ok")
    first.click("#btn-undo")  # Undo takes back one step
    assert len(board_data(first, "made").split()) == 1
    assert not first.is_enabled("#btn-ok")
    first.keyboard.press("u")  # and the keyboard does too
    assert board_data(first, "made") == ""
    combined_move(first)
    version = board_data(first, "version")
    first.keyboard.press("Enter")  # OK
    first.wait_for_function(
        "v => document.querySelector('#main svg.board').dataset.version !== v", arg=version
    )

    # The second player doubles; the first takes.
    second = roller(both)
    assert second is other(both, first)
    second.click("#btn-double")
    first.wait_for_selector("#take-dialog")
    first.click("#btn-take")
    # The doubler cannot double again, so the roll is automatic.
    assert mover(both) is second
    play_turn(second)

    # The taker owns the cube and redoubles; the other drops: the game ends 2-0.
    first.wait_for_selector("#btn-double")
    first.click("#btn-double")
    second.wait_for_selector("#take-dialog")
    screenshot(second, "take-dialog")
    second.click("#btn-drop")
    for page in both:
        page.wait_for_selector("#game-over")
        page.click("#btn-continue")
    assert first.inner_text("#score") == "2 – 0"
    assert second.inner_text("#score") == "0 – 2"

    # The Crawford game: nobody may double, so rolls are automatic.
    sleepy = mover(both)
    awake = other(both, sleepy)
    assert sleepy.query_selector("#crawford")
    assert not sleepy.query_selector("#btn-double")
    screenshot(bob, "table-desktop")
    # Sleepy lets the clock run out: auto-play takes over.
    running.call(lambda: clock.advance(31))
    running.call(running.services.rooms.settle)
    sleepy.wait_for_selector("#autoplay-banner:not(.hidden)")
    awake.wait_for_selector(".autoplay-badge")
    sleepy.click("#take-back")
    sleepy.wait_for_selector("#autoplay-banner", state="hidden")
    awake.wait_for_selector(".autoplay-badge", state="detached")

    # A reload in the middle of a turn restores the same table (and the step already made).
    page = mover(both)
    points = movable(page)
    tap(page, points[0])
    tap(page, min(dests(page)))
    before = {name: board_data(page, name) for name in ("position", "made", "version", "dests")}
    assert before["made"]
    page.reload()
    page.wait_for_function(
        "v => { const b = document.querySelector('#main svg.board');"
        " return b && b.dataset.version === v; }",
        arg=before["version"],
    )
    after = {name: board_data(page, name) for name in ("position", "made", "version", "dests")}
    assert after == before
