"""Friends and challenges in two phones (issue 38, part 3), at 390 x 844: Alice follows Bob from
his profile and finds him online on her friends page, challenges him to a correspondence match
(1 day a move, 3 points); Bob sees the bell's count and the challenge notification, opens it
('Your games'), accepts, and both end up at the same table; the pages are reloaded between the
steps. Then Bob blocks Alice from her profile, and her next challenge is refused with a clear
message in the form."""

from __future__ import annotations

from typing import Any

from bidak.server.shared.clocks import ManualClock
from tests.web.a11y import audit, lines, prepare
from tests.web.conftest import screenshot
from tests.web.helpers import untranslated

PHONE = {"width": 390, "height": 844}


def player_id(page: Any) -> str:
    found: str = page.evaluate("() => fetch('/api/me').then(r => r.json()).then(x => x.id)")
    return found


def bell(page: Any) -> str:
    return str(page.eval_on_selector("#bell-badge", "b => b.hidden ? '' : b.textContent"))


def profile(page: Any, who: str) -> None:
    page.goto(f"/#/player/{who}")
    page.reload()
    page.wait_for_selector("#relation-card #profile-block")


def room_of(page: Any) -> str:
    page.wait_for_function("() => location.hash.startsWith('#/room/')")
    page.wait_for_selector("#main svg.board")
    code: str = page.evaluate("() => location.hash.slice('#/room/'.length)")
    return code


def in_view(page: Any, selector: str) -> None:
    """The element is inside the phone's width and at least 44 px tall (a touch target)."""
    box = page.eval_on_selector(
        selector,
        "e => [e.getBoundingClientRect().left, e.getBoundingClientRect().right,"
        " e.getBoundingClientRect().height]",
    )
    assert box[0] >= 0 and box[1] <= PHONE["width"] and box[2] >= 44, (selector, box)


def test_follow_challenge_accept_then_block(server: Any, pages: Any) -> None:
    running = server(clock=ManualClock())
    alice = pages.new(running.base, PHONE)
    bob = pages.new(running.base, PHONE)
    found: list[dict[str, Any]] = []  # axe's serious and critical findings (issue 40)
    for page in (alice, bob):
        prepare(page)
        page.goto("/")
        page.wait_for_selector("#header-bell")
    alice_id, bob_id = player_id(alice), player_id(bob)

    # Alice follows Bob from his profile; the page remembers it after a reload.
    profile(alice, bob_id)
    for selector in ("#profile-follow", "#profile-challenge", "#profile-block"):
        in_view(alice, selector)
    alice.click("#profile-follow")
    alice.wait_for_selector('#profile-follow[data-i18n="friends.unfollow"]')
    profile(alice, bob_id)
    assert alice.get_attribute("#profile-follow", "data-i18n") == "friends.unfollow"
    screenshot(alice, "challenge-profile-phone")
    found += audit(alice, "profile with follow, challenge, block")

    # Her friends page: Bob, online (his page asked the server a moment ago).
    alice.goto("/#/friends")
    alice.wait_for_selector(f'.friend-item[data-friend="{bob_id}"]')
    assert alice.get_attribute(f'.friend-item[data-friend="{bob_id}"]', "data-online") == "1"
    assert untranslated(alice) == []
    screenshot(alice, "challenge-friends-phone")
    found += audit(alice, "friends")

    # The challenge: correspondence, 1 day a move, 3 points.
    profile(alice, bob_id)
    alice.click("#profile-challenge")
    alice.wait_for_selector("#challenge-dialog")
    alice.click('[data-name="challenge-days"] [data-value="1"]')
    alice.click('[data-name="challenge-length"] [data-value="3"]')
    assert not alice.query_selector('[data-name="challenge-time"]')  # no seconds by days
    screenshot(alice, "challenge-form-phone")
    found += audit(alice, "challenge form")
    alice.click("#challenge-send")
    alice.wait_for_selector("#challenge-dialog", state="detached")
    alice.wait_for_selector('#profile-challenges [data-way="outgoing"]')
    profile(alice, bob_id)
    assert alice.query_selector("#profile-challenges [data-withdraw]")

    # Bob: the bell counts it, the notification opens 'Your games', where he accepts.
    bob.reload()
    bob.wait_for_function("() => document.getElementById('bell-badge').textContent === '1'")
    assert bell(bob) == "1"
    bob.click("#header-bell")
    bob.wait_for_selector('.note-item[data-kind="challenge"]')
    assert untranslated(bob) == []
    screenshot(bob, "challenge-notification-phone")
    bob.click('.note-item[data-kind="challenge"]')
    bob.wait_for_function("() => location.hash === '#/games'")
    bob.reload()
    bob.wait_for_selector("#challenges-incoming [data-accept]")
    in_view(bob, "#challenges-incoming [data-accept]")
    assert untranslated(bob) == []
    screenshot(bob, "challenge-your-games-phone")
    found += audit(bob, "your games with a challenge")
    bob.click("#challenges-incoming [data-accept]")
    bob_room = room_of(bob)
    bob.reload()
    bob.wait_for_selector("#main svg.board")

    # Alice is told; her notification opens the same table.
    alice.reload()
    alice.wait_for_function("() => document.getElementById('bell-badge').textContent === '1'")
    alice.click("#header-bell")
    alice.wait_for_selector('.note-item[data-kind="accepted"]')
    alice.click('.note-item[data-kind="accepted"]')
    assert room_of(alice) == bob_room
    alice.reload()
    alice.wait_for_selector("#main svg.board")
    screenshot(alice, "challenge-table-phone")
    screenshot(bob, "challenge-table-bob-phone")

    # Bob blocks Alice; her next challenge is refused, and the form says why.
    profile(bob, alice_id)
    bob.click("#profile-block")
    bob.wait_for_selector("#blocked-note")
    assert not bob.query_selector("#profile-challenge")
    profile(bob, alice_id)
    assert bob.get_attribute("#profile-block", "data-i18n") == "friends.unblock"
    screenshot(bob, "challenge-blocked-phone")

    profile(alice, bob_id)
    assert alice.get_attribute("#profile-follow", "data-i18n") == "friends.follow"  # ended
    alice.click("#profile-challenge")
    alice.click("#challenge-send")
    alice.wait_for_selector("#challenge-refused:not([hidden])")
    refusal = alice.inner_text("#challenge-refused")
    assert "cannot challenge" in refusal, refusal
    assert alice.get_attribute("#challenge-refused span", "data-i18n") == "refusal.blocked"
    screenshot(alice, "challenge-refused-phone")
    found += audit(alice, "challenge refused")
    assert not found, "\n".join([f"{len(found)} serious or critical:", *lines(found)])
    assert [e for e in pages.errors if "status of 403" not in e] == []
    pages.errors.clear()  # the browser logs the refused request
