"""Playing strangers through the page: two browsers press Quick match, play a 1-point match to
the end, see how it moved their ratings, talk (and mute), and rematch; then the leaderboard,
the live list and a profile, with screenshots at phone and desktop size."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

from sqlalchemy import update

from bidak.server.play.options import FriendOptions
from bidak.server.play.rated_queries import RatedEnd, rate
from bidak.server.shared.clocks import ManualClock
from bidak.server.shared.store.models import PlayerRow
from tests.server.harness import link_addresses
from tests.web.conftest import DESKTOP, screenshot
from tests.web.helpers import movable, play_turn, set_language, untranslated

PHONE = {"width": 390, "height": 844}


def account(page: Any) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate("() => fetch('/api/me').then((r) => r.json())")
    return found


def room_of(page: Any) -> str:
    found = re.search(r"#/room/([A-Za-z0-9_-]+)", page.url)
    assert found, page.url
    return found.group(1)


def play_to_the_end(both: list[Any]) -> None:
    """Whoever must move plays (the first legal steps shown), until the match is over."""
    for _ in range(400):
        if all(page.query_selector("#match-over") for page in both):
            return
        for page in both:
            if not page.query_selector("#match-over") and movable(page):
                play_turn(page)
                break
        else:
            both[0].wait_for_timeout(50)
    raise AssertionError("the match did not end")


def test_quick_match_rated_then_talk_and_rematch(server: Any, pages: Any) -> None:
    clock = ManualClock()
    running = server(clock=clock)
    alice = pages.new(running.base, PHONE)
    bob = pages.new(running.base, DESKTOP)
    both = [alice, bob]
    for page in both:
        page.goto("/")
        page.wait_for_selector("#quick-card #link-me")

    # Alice waits (the time waited counts up), then cancels: she is no longer in the queue.
    alice.click('[data-name="quick-length"] [data-value="1"]')
    assert alice.query_selector("#quick-cube-none")  # no cube at 1 point
    alice.click('[data-name="quick-time"] [data-value="30"]')
    alice.click("#quick-start")
    alice.wait_for_selector("#quick-waiting")
    assert untranslated(alice) == []
    screenshot(alice, "quick-waiting-phone")
    alice.click("#quick-cancel")
    alice.wait_for_selector("#quick-start")
    assert alice.evaluate("() => fetch('/api/quick').then((r) => r.json())")["waiting"] is False

    # Bob waits; Alice presses Quick match with the same options: both go to one room.
    bob.click('[data-name="quick-length"] [data-value="1"]')
    bob.click('[data-name="quick-time"] [data-value="30"]')
    bob.click("#quick-start")
    bob.wait_for_selector("#quick-waiting")
    screenshot(bob, "quick-waiting-desktop")
    alice.click("#quick-start")
    for page in both:
        page.wait_for_selector("#main svg.board")
    assert room_of(alice) == room_of(bob)
    code = room_of(alice)
    a, b = account(alice), account(bob)
    # Rated play is between accounts with a linked address (guests play unrated).
    running.call(lambda: link_addresses(running, a["id"], b["id"]))

    # The opponent's name links to their profile.
    assert alice.get_attribute("#seat-top .seat-link", "href") == f"#/player/{b['id']}"

    # Table talk: Bob mutes Alice first; her phrase reaches only her own screen, his both.
    bob.click("#mute-switch")
    bob.wait_for_selector("#mute-switch[aria-pressed='true']")
    alice.click("#talk-bar [data-phrase='good_luck']")
    alice.wait_for_selector("#seat-bottom .talk-bubble")
    assert alice.inner_text("#seat-bottom .talk-bubble") == "Good luck!"
    bob.click("#talk-bar [data-phrase='hello']")
    bob.wait_for_selector("#seat-bottom .talk-bubble")  # his own, after hers was sent
    assert not bob.query_selector("#seat-top .talk-bubble")
    alice.wait_for_selector("#seat-top .talk-bubble")
    assert alice.inner_text("#seat-top .talk-bubble") == "Hello!"
    screenshot(alice, "table-talk-phone")

    play_to_the_end(both)

    # The match-over dialog: each player's old rating, change and new one (new players, equal
    # ratings, 1 point: 10.00 each way).
    winner = next(
        page for page in both if page.query_selector("#match-over h2[data-i18n='match.won']")
    )
    loser = alice if winner is bob else bob
    for page in both:
        page.wait_for_selector("#rating-table")
        rows = page.query_selector_all("#rating-table tbody tr")
        assert len(rows) == 2
        assert page.inner_text("#rating-table tbody tr:first-child .rating-before") == "1500.00"
    assert winner.inner_text("#rating-table tbody tr:first-child .rating-change") == "+10.00"
    assert winner.inner_text("#rating-table tbody tr:first-child .rating-after") == "1510.00"
    assert loser.inner_text("#rating-table tbody tr:first-child .rating-change") == "−10.00"
    assert loser.inner_text("#rating-table tbody tr:first-child .rating-after") == "1490.00"
    assert untranslated(winner) == []
    screenshot(alice, "match-over-ratings-phone")
    screenshot(bob, "match-over-ratings-desktop")

    # Rematch: the loser offers, the winner sees the offer with its countdown and accepts.
    loser.click("#rematch-ask")
    loser.wait_for_selector("#rematch-offered #rematch-left")
    winner.wait_for_selector("#rematch-offer")
    who = a["name"] if loser is alice else b["name"]
    offer = winner.inner_text("#rematch-offer .rematch-text")
    assert offer == f"\u2068{who}\u2069 offers a rematch"  # the name isolated in the sentence
    winner.click("#rematch-accept")
    for page in both:
        page.wait_for_function("c => !location.hash.includes(c)", arg=code)
        page.wait_for_selector("#main svg.board")
    assert room_of(alice) == room_of(bob) != code


def test_a_long_wait_offers_the_bot(server: Any, pages: Any) -> None:
    clock = ManualClock()
    running = server(clock=clock)
    page = pages.new(running.base, PHONE)
    page.goto("/")
    page.click('[data-name="quick-length"] [data-value="3"]')
    page.click("#quick-start")
    page.wait_for_selector("#quick-waiting")
    running.call(lambda: clock.advance(46))
    running.call(running.services.quick.pair_now)
    page.wait_for_selector("#quick-offer")
    assert page.inner_text("#quick-offer .dialog-body") == (
        "Play the bot (level Beginner) meanwhile? You will leave the queue."
    )
    page.click("#quick-offer-play")
    page.wait_for_selector("#main svg.board")
    assert page.evaluate("() => fetch('/api/quick').then((r) => r.json())")["waiting"] is False
    assert "Bot (Beginner)" in page.inner_text("#seat-top")


# -- the community pages, with data made through the server's services -----------------------


async def _standing(running: Any, player: str, rating: float, experience: int) -> None:
    table = PlayerRow.__table__
    await running.services.db.write(
        lambda c: c.execute(
            update(table).where(table.c.id == player).values(rating=rating, experience=experience)
        )
    )


async def _rated(running: Any, winner: str, loser: str, at: datetime, finish: bool) -> str:
    """A friend room between two players, its match started; rated as ended at ``at``."""
    services = running.services
    first = await services.store.player(winner)
    second = await services.store.player(loser)
    room = await services.rooms.create_friend(first, FriendOptions(length=3))
    await services.rooms.join(room.code, second)
    room = await services.rooms.room(room.code)
    if finish:
        await link_addresses(running, winner, loser)
        await services.db.write(partial(rate, end=RatedEnd(room.match_id, winner, loser, 3), at=at))
    return str(room.code)


def test_leaderboard_live_list_and_profile(server: Any, pages: Any) -> None:
    running = server()
    phone = pages.new(running.base, PHONE)
    desk = pages.new(running.base, DESKTOP)
    phone.goto("/")
    desk.goto("/")
    viewer = account(phone)
    now = datetime.now(UTC)
    names = {"Ana Top": (1912.5, 620), "Budi <b>Bold</b>": (1804.25, 300), "Kaisa": (1650.0, 75)}

    async def make() -> dict[str, str]:
        store = running.services.store
        ids = {name: str((await store.create_guest(name))[0].id) for name in names}
        await _rated(running, ids["Ana Top"], ids["Kaisa"], now - timedelta(days=1), True)
        await _rated(
            running, ids["Budi <b>Bold</b>"], ids["Ana Top"], now - timedelta(hours=3), True
        )
        await _rated(running, viewer["id"], ids["Kaisa"], now - timedelta(hours=1), True)
        for name, (rating, experience) in names.items():
            await _standing(running, ids[name], rating, experience)
        await _standing(running, viewer["id"], 1700.0, 60)
        ids["live"] = await _rated(running, ids["Kaisa"], ids["Ana Top"], now, False)
        return ids

    ids = running.call(make)

    for page, size in ((phone, "phone"), (desk, "desktop")):
        page.goto("/")
        page.click("#link-leaderboard")
        page.wait_for_selector("#ranks")
        names_shown = [
            row.inner_text() for row in page.query_selector_all("#ranks tbody td:nth-child(2)")
        ]
        assert names_shown[:2] == ["Ana Top", "Budi <b>Bold</b>"]  # a name is text, never markup
        if page is phone:  # on the board, and its row stands out
            assert page.inner_text("#your-rank") == "Your rank: 3"
            assert page.get_attribute("#ranks tbody tr.me", "data-player") == viewer["id"]
        else:
            # Not on the board, and told how many rated matches it takes.
            assert page.get_attribute("#your-rank", "data-i18n") == "leaderboard.to_go"
            assert "more rated 5-point matches" in page.inner_text("#your-rank")
        assert untranslated(page) == []
        screenshot(page, f"leaderboard-{size}")

        page.goto("/#/live")
        page.wait_for_selector("#live-list")
        item = page.query_selector(f".live-item[data-room='{ids['live']}']")
        assert item is not None and "Kaisa" in item.inner_text()
        assert untranslated(page) == []
        screenshot(page, f"live-{size}")

        page.goto("/#/leaderboard")
        page.click("#ranks tbody tr:first-child a")
        page.wait_for_selector("#profile-stats")
        assert page.inner_text("#profile-name") == "Ana Top"
        assert page.inner_text("#stat-rating") == "1912.50"
        assert page.inner_text("#stat-played") == "2"
        assert page.inner_text("#stat-won") == "1"
        assert page.inner_text("#stat-streak") == "1 lost"
        recent = page.query_selector_all("#recent .history-item")
        assert len(recent) == 2
        assert recent[0].query_selector(".opp").inner_text() == "Budi <b>Bold</b>"
        assert untranslated(page) == []
        screenshot(page, f"profile-{size}")

    # Every text of the pages in the other languages too.
    for path, ready in (("/#/player/" + ids["Ana Top"], "#recent"), ("/#/leaderboard", "#ranks")):
        desk.goto(path)
        desk.wait_for_selector(ready)
        for code in ("fi", "id"):
            set_language(desk, code)
            assert untranslated(desk) == [], (path, code)
        set_language(desk, "en")

    # One tap on a live match opens it to watch.
    desk.goto("/#/live")
    desk.click(f".live-item[data-room='{ids['live']}']")
    desk.wait_for_selector("#main svg.board")
    desk.wait_for_selector("#controls [data-i18n='spectating']")
    # The board in words says whose side a spectator hears it from (issue 40).
    first = desk.locator("#board-text li").first.inner_text()
    assert first.startswith("You are watching: “yours” here means the checkers of "), first


def test_a_quick_match_between_guests_says_it_was_unrated_and_why(server: Any, pages: Any) -> None:
    running = server()
    alice = pages.new(running.base, PHONE)
    bob = pages.new(running.base, DESKTOP)
    both = [alice, bob]
    for page in both:
        page.goto("/")
        page.wait_for_selector("#quick-card #link-me")
        page.click('[data-name="quick-length"] [data-value="1"]')
        page.click('[data-name="quick-time"] [data-value="30"]')
    bob.click("#quick-start")
    bob.wait_for_selector("#quick-waiting")
    alice.click("#quick-start")
    for page in both:
        page.wait_for_selector("#main svg.board")
    for _ in range(200):  # whoever must move resigns the match
        resigner = next((page for page in both if movable(page)), None)
        if resigner is not None:
            break
        alice.wait_for_timeout(100)
    assert resigner is not None, "nobody can move"
    resigner.click("#btn-resign")
    resigner.click("#btn-forfeit")
    resigner.click("#confirm-forfeit")
    texts = {
        "en": "ratings move only between two accounts with a linked e-mail address",
        "id": "rating hanya berubah antara dua akun",
        "fi": "luokitus muuttuu vain kahden tilin välillä",
    }
    for page in both:
        page.wait_for_selector("#match-over #rating-unrated")
        assert not page.query_selector("#rating-table")
        assert texts["en"] in page.inner_text("#rating-unrated")
    for code in ("id", "fi"):
        set_language(bob, code)
        assert texts[code] in bob.inner_text("#rating-unrated")
    assert untranslated(bob) == []
    screenshot(bob, "match-over-unrated-desktop")
