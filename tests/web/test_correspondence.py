"""Two phones play a correspondence friend match (docs/correspondence.md): made from the
lobby's friend card with 'days per move', joined by its link, three plays each with the
pages reloaded in between and hours passing on the server's clock; the page opened after the
opponent played shows their play; 'Your games' lists the waiting game first, and the header's
badge counts the games waiting on each player; a vacation is taken from the same page."""

from __future__ import annotations

from typing import Any

from bidak.server.shared.clocks import ManualClock
from tests.web.conftest import screenshot
from tests.web.helpers import board_data, movable, play_turn, untranslated

PHONE = {"width": 390, "height": 844}
HOURS = 3600.0


def my_turn(pages: list[Any], timeout: float = 20000) -> Any:
    """The page whose player must roll or move now."""
    for _ in range(int(timeout / 100)):
        for page in pages:
            if page.query_selector("#btn-roll") or movable(page):
                return page
        pages[0].wait_for_timeout(100)
    raise AssertionError("nobody may act")


def open_table(page: Any) -> None:
    page.reload()
    page.wait_for_selector("#main svg.board")


def badge(page: Any) -> str:
    page.wait_for_function("() => document.getElementById('games-badge') !== null")
    return str(page.eval_on_selector("#games-badge", "b => b.hidden ? '' : b.textContent"))


def test_a_correspondence_match_over_days_with_your_games_and_the_badge(
    server: Any, pages: Any
) -> None:
    clock = ManualClock()
    running = server(clock=clock)
    alice = pages.new(running.base, PHONE)
    bob = pages.new(running.base, PHONE)
    both = [alice, bob]

    alice.goto("/")
    alice.click('[data-name="friend-days"] [data-value="2"]')
    alice.wait_for_selector("#friend-days-note")
    assert not alice.query_selector('[data-name="time"]')  # no seconds in correspondence
    alice.click('[data-name="friend-length"] [data-value="9"]')
    alice.click("#create-friend")
    link = alice.input_value("#invite-link")
    screenshot(alice, "correspondence-invite-phone")
    bob.goto(link)
    for page in both:
        page.wait_for_selector("#main svg.board")

    plays = {id(alice): 0, id(bob): 0}
    since_seen = False
    while min(plays.values()) < 3:
        page = my_turn(both)
        clock_text = page.inner_text("#seat-bottom .clock")
        assert "d" in clock_text or "h" in clock_text, clock_text  # days and hours, not 2880:00
        if page.query_selector("#btn-roll"):
            version = board_data(page, "version")
            page.click("#btn-roll")  # rolling is a tap
            page.wait_for_function(
                "v => document.querySelector('#main svg.board').dataset.version !== v", arg=version
            )
            continue
        play_turn(page)
        plays[id(page)] += 1
        running.call(lambda: clock.advance(20 * HOURS))  # the answer comes most of a day later
        opponent = bob if page is alice else alice
        open_table(opponent)  # the opponent opens the game after hours away
        if not since_seen and opponent.query_selector(".toasts .toast"):
            since_seen = "Since you last looked" in opponent.inner_text(".toasts")
            if since_seen:
                assert opponent.query_selector("#main svg.board .arrow-last")
        open_table(page)
    assert since_seen, "a table opened after the opponent's play says what happened"
    assert untranslated(alice) == [] and untranslated(bob) == []

    waiting = my_turn(both)  # whose decision the correspondence match waits for
    idle = bob if waiting is alice else alice
    # Alice also plays the bot: that game waits on her, with no clock.
    alice.goto("/")
    alice.click("#start-practice")
    alice.wait_for_selector("#main svg.board")
    my_turn([alice])
    for page in both:
        page.goto("/#/games")
        page.wait_for_selector("#games-list")
    rows = alice.eval_on_selector_all(
        "#games-list .game-item", "items => items.map(a => [a.dataset.room, a.dataset.yours])"
    )
    assert len(rows) == 2
    yours = [flag for _, flag in rows]
    assert yours == sorted(yours, reverse=True)  # the games waiting on Alice first
    correspondence = link.rsplit("/", 1)[1]
    if waiting is alice:  # both wait on her: the one with a clock comes first
        assert rows == [[correspondence, "1"], [rows[1][0], "1"]]
        assert badge(alice) == "2" and badge(bob) == ""
    else:
        assert rows[1] == [correspondence, "0"]
        assert badge(alice) == "1" and badge(bob) == "1"
    assert idle is not waiting
    screenshot(alice, "your-games-phone")
    assert alice.query_selector("#games-list svg.thumb circle")
    assert untranslated(alice) == []

    # The player the match waits on takes a day of vacation from the same page.
    waiting.wait_for_selector("#vacation-left")
    before = waiting.inner_text("#games-list .game-item.yours .game-left")
    assert waiting.inner_text("#vacation-left").startswith("15 of 15")
    waiting.click('[data-name="vacation-days"] [data-value="1"]')
    waiting.click("#take-vacation")
    waiting.wait_for_selector("#vacation-until")
    assert waiting.inner_text("#vacation-left").startswith("14 of 15")
    waiting.wait_for_function(  # the clock stopped: a day more is left
        "b => document.querySelector('#games-list .game-item.yours .game-left').textContent !== b",
        arg=before,
    )
    screenshot(waiting, "vacation-phone")
    # Auto-roll is off by default, and kept when switched on.
    waiting.wait_for_selector("#auto-roll:not([disabled])")
    assert not waiting.is_checked("#auto-roll")
    with waiting.expect_response(
        lambda r: r.url.endswith("/api/games/settings") and r.request.method == "PUT"
    ):
        waiting.check("#auto-roll")
    waiting.reload()
    waiting.wait_for_selector("#auto-roll:not([disabled])")
    assert waiting.is_checked("#auto-roll")
    assert untranslated(waiting) == []
