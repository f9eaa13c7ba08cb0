"""The correspondence loop across its seams, on two phones at 390 x 844 (issue 38): the site
installs its service worker; Alice challenges Bob from his profile to a correspondence match
(1 day a move, 3 points); Bob sees the bell's count and the challenge, accepts it from 'Your
games'; Alice's "accepted" notification takes her to the table. Then both play three moves
each, hours apart on the server's clock, and each time the player whose turn it is comes back
from the lobby: the header's games badge counts the game, the bell has a "your turn"
notification, and tapping it opens the table (a notification into the table), which is
reloaded before the play. At the end 'Your games' puts the game first for the one it waits on.
"""

from __future__ import annotations

from typing import Any

from bidak.server.shared.clocks import ManualClock
from tests.web.conftest import screenshot
from tests.web.helpers import board_data, play_turn, untranslated
from tests.web.test_challenges import player_id, profile, room_of
from tests.web.test_correspondence import badge, my_turn

PHONE = {"width": 390, "height": 844}
HOURS = 3600.0


def worker_scope(page: Any) -> str:
    """The scope of the page's ready service worker (the site registers it at start)."""
    scope: str = page.evaluate(
        "() => navigator.serviceWorker.ready.then(r => new URL(r.scope).pathname)"
    )
    return scope


def unread_turn(page: Any) -> None:
    """Open the bell and tap the newest unread "your turn" notification."""
    page.click("#header-bell")
    item = '.note-item.unread[data-kind="turn"]'
    page.wait_for_selector(item)
    page.click(item)


def test_challenge_into_a_correspondence_match_played_by_notifications(
    server: Any, pages: Any
) -> None:
    clock = ManualClock()
    running = server(clock=clock)
    alice = pages.new(running.base, PHONE)
    bob = pages.new(running.base, PHONE)
    both = [alice, bob]
    for page in both:
        page.goto("/")
        page.wait_for_selector("#header-bell")
        assert worker_scope(page) == "/"
    bob_id = player_id(bob)
    manifest = alice.evaluate(
        "() => fetch(document.querySelector('link[rel=manifest]').href).then(r => r.json())"
    )
    assert {icon["sizes"] for icon in manifest["icons"]} >= {"192x192", "512x512"}

    # The challenge, from Bob's profile.
    profile(alice, bob_id)
    alice.click("#profile-challenge")
    alice.wait_for_selector("#challenge-dialog")
    alice.click('[data-name="challenge-days"] [data-value="1"]')
    alice.click('[data-name="challenge-length"] [data-value="3"]')
    alice.click("#challenge-send")
    alice.wait_for_selector("#challenge-dialog", state="detached")

    # Bob: the bell, the challenge, 'Your games', accept.
    bob.reload()
    bob.wait_for_function("() => document.getElementById('bell-badge').textContent === '1'")
    bob.click("#header-bell")
    bob.click('.note-item[data-kind="challenge"]')
    bob.wait_for_function("() => location.hash === '#/games'")
    bob.wait_for_selector("#challenges-incoming [data-accept]")
    bob.click("#challenges-incoming [data-accept]")
    room = room_of(bob)

    # Alice: her "accepted" notification opens the same table.
    alice.reload()
    alice.click("#header-bell")
    alice.click('.note-item[data-kind="accepted"]')
    assert room_of(alice) == room

    plays = {id(alice): 0, id(bob): 0}
    came_by_bell = {id(alice): 0, id(bob): 0}
    while min(plays.values()) < 3:
        page = my_turn(both)
        if page.query_selector("#btn-roll"):
            version = board_data(page, "version")
            page.click("#btn-roll")
            page.wait_for_function(
                "v => document.querySelector('#main svg.board').dataset.version !== v", arg=version
            )
            continue
        play_turn(page)
        plays[id(page)] += 1
        page.goto("/")  # the player leaves the table for the lobby
        page.wait_for_selector("#header-bell")
        running.call(lambda: clock.advance(6 * HOURS))  # the answer comes hours later
        opponent = bob if page is alice else alice
        # The opponent comes back to the site: the badge counts the game waiting on them, the
        # bell has "your turn", and the notification opens the table.
        opponent.goto("/")
        opponent.reload()
        opponent.wait_for_selector("#header-bell")
        if badge(opponent) == "1":
            unread_turn(opponent)
            assert room_of(opponent) == room
            came_by_bell[id(opponent)] += 1
        else:  # the opponent must take or answer something else first: open the table
            opponent.goto(f"/#/room/{room}")
        opponent.reload()  # and reloaded once more before the play
        opponent.wait_for_selector("#main svg.board")
        page.goto(f"/#/room/{room}")  # the one who played looks in on the table again
        page.wait_for_selector("#main svg.board")
    assert min(came_by_bell.values()) >= 1, came_by_bell
    # At the table, its "your turn" notifications are read: the bell counts none of them.
    for page in both:
        page.wait_for_function("() => document.getElementById('bell-badge').hidden")
    assert untranslated(alice) == [] and untranslated(bob) == []
    screenshot(bob, "challenge-walk-table-phone")

    # 'Your games': the game waits on one of them, first in their list and counted in their
    # badge; the other sees it, not counted.
    waiting = my_turn(both)
    idle = bob if waiting is alice else alice
    for page in both:
        page.goto("/#/games")
        page.wait_for_selector("#games-list")
    first = waiting.eval_on_selector(
        "#games-list .game-item", "a => [a.dataset.room, a.dataset.yours]"
    )
    assert first == [room, "1"]
    other = idle.eval_on_selector(
        "#games-list .game-item", "a => [a.dataset.room, a.dataset.yours]"
    )
    assert other == [room, "0"]
    assert badge(waiting) == "1" and badge(idle) == ""
    screenshot(waiting, "challenge-walk-your-games-phone")
