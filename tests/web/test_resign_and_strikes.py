"""Resigning is losing the match (one confirmation, with the final score), resigning only the game
is still there in match play, and a three-strikes room shows every player's timeouts."""

from __future__ import annotations

from typing import Any

import pytest

from bidak.server.shared.clocks import ManualClock
from tests.web.conftest import DESKTOP, screenshot
from tests.web.helpers import play_turn, start_practice, untranslated, wait_for_my_move_or_end

PHONE = {"width": 390, "height": 844}
SIZES = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")]


def _name(size: dict[str, int]) -> str:
    return "phone" if size is PHONE else "desktop"


@pytest.mark.parametrize("size", SIZES)
def test_resign_forfeits_the_match_after_confirming_and_game_resignation_remains(
    server: Any, pages: Any, size: dict[str, int]
) -> None:
    running = server()
    page = pages.new(running.base, size)
    page.goto("/")
    start_practice(page, "beginner", length=3, cube=True)
    assert wait_for_my_move_or_end(page) != "over"

    # The Resign button: losing the match is the main action, the game alone a second choice.
    page.click("#btn-resign")
    page.wait_for_selector("#resign-dialog")
    text = page.inner_text("#resign-dialog")
    assert "losing the whole match" in text
    buttons = page.locator("#resign-dialog .dialog-actions button")
    assert buttons.first.get_attribute("id") == "btn-forfeit"
    assert page.inner_text("#btn-forfeit") == "Resign the match"
    assert page.inner_text("#btn-resign-game") == "Resign only this game…"
    screenshot(page, f"resign-dialog-{_name(size)}")
    assert untranslated(page) == []

    # Resigning only this game: offered as a gammon, which the bot (by its equity) accepts.
    page.click("#btn-resign-game")
    page.wait_for_selector("#resign-game-dialog")
    assert "the match goes on" in page.inner_text("#resign-game-dialog")
    page.click('[data-name="resign-level"] [data-value="2"]')
    screenshot(page, f"resign-game-dialog-{_name(size)}")
    page.click("#confirm-resign")
    page.wait_for_selector("#game-over")
    page.click("#btn-continue")
    assert page.inner_text("#score") == "0 – 2"
    assert wait_for_my_move_or_end(page) != "over"

    # Resigning the match: one confirmation that says so and shows the final score.
    page.click("#btn-resign")
    page.click("#btn-forfeit")
    page.wait_for_selector("#forfeit-dialog")
    assert "wins the match" in page.inner_text("#forfeit-dialog")
    assert page.inner_text("#forfeit-score") == "0 – 3"
    screenshot(page, f"forfeit-confirm-{_name(size)}")
    page.click("#confirm-forfeit")
    page.wait_for_selector("#match-over")
    assert page.inner_text("#match-over .big-score") == "0 – 3"
    assert page.inner_text("#score") == "0 – 3"
    screenshot(page, f"forfeit-match-over-{_name(size)}")


def test_a_one_point_match_offers_only_the_match(server: Any, pages: Any) -> None:
    """In a 1-point match the game is the match: there is no separate game resignation."""
    running = server()
    page = pages.new(running.base, PHONE)
    page.goto("/")
    start_practice(page, "beginner", length=1)
    assert wait_for_my_move_or_end(page) != "over"
    page.click("#btn-resign")
    page.wait_for_selector("#resign-dialog")
    assert page.query_selector("#btn-forfeit")
    assert not page.query_selector("#btn-resign-game")


def test_both_players_see_the_strikes_in_a_three_strikes_room(server: Any, pages: Any) -> None:
    clock = ManualClock()
    running = server(clock=clock)
    alice = pages.new(running.base, PHONE)
    bob = pages.new(running.base, DESKTOP)
    alice.goto("/")
    alice.click('[data-name="friend-length"] [data-value="3"]')
    alice.click('[data-name="time"] [data-value="30"]')
    alice.click('[data-name="timeout"] [data-value="three_strikes"]')
    alice.click("#create-friend")
    bob.goto(alice.input_value("#invite-link"))
    for page in (alice, bob):
        page.wait_for_selector("#main svg.board")
        badges = page.locator(".badge.strikes")
        assert badges.all_inner_texts() == ["Timeouts 0/3", "Timeouts 0/3"]

    # Whoever is on the clock lets it run out: a strike, seen on both tables and told.
    sleepy = alice if alice.inner_text("#seat-bottom .clock") else bob
    awake = bob if sleepy is alice else alice
    running.call(lambda: clock.advance(31))
    running.call(running.services.rooms.settle)
    sleepy.wait_for_selector('#seat-bottom .badge.strikes:text("Timeouts 1/3")')
    awake.wait_for_selector('#seat-top .badge.strikes:text("Timeouts 1/3")')
    assert awake.inner_text("#seat-bottom .badge.strikes") == "Timeouts 0/3"
    sleepy.wait_for_function(
        "t => document.getElementById('log').textContent.includes(t)",
        arg="You ran out of time: timeout 1/3, 2 left",
    )
    assert "ran out of time (timeout 1/3, 2 left)" in awake.inner_text("#log")
    screenshot(sleepy, "strikes-phone" if sleepy is alice else "strikes-desktop")
    screenshot(awake, "strikes-phone" if awake is alice else "strikes-desktop")
    for page in (alice, bob):
        assert untranslated(page) == []

    # Sleepy lets every clock run out; awake plays. Each count is said once, even when a turn's
    # roll and play both time out, and the third loses the match on time, not by resigning.
    me = sleepy.evaluate("() => window.__bidak.view.seat")
    for _ in range(40):
        if sleepy.query_selector("#match-over"):
            break
        sleepy.wait_for_function(
            "() => window.__bidak.view.deadline || document.getElementById('match-over')"
        )
        if sleepy.query_selector("#match-over"):
            break
        if sleepy.evaluate("() => window.__bidak.view.deadline.player") == me:
            seen = sleepy.evaluate("() => window.__bidak.view.version")
            running.call(lambda: clock.advance(31))
            running.call(running.services.rooms.settle)
            sleepy.wait_for_function("v => window.__bidak.view.version > v", arg=seen)
            continue
        state = wait_for_my_move_or_end(awake)
        if state == "roll":
            awake.click("#btn-roll")
            awake.wait_for_function("() => !document.querySelector('#btn-roll:not([disabled])')")
        elif state == "move":
            play_turn(awake)
        elif state == "doubled":
            awake.click("#btn-take")
    sleepy.wait_for_selector("#match-over")
    log = sleepy.inner_text("#log")
    for count in ("timeout 1/3", "timeout 2/3", "timeout 3/3"):
        assert log.count(count) == 1, (count, log)
    assert "gave up the match" not in log
    assert "You ran out of time: timeout 3/3 loses the match" in log
