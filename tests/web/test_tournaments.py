"""Tournaments through the page: the lobby's card counts down to a site arena, two players join
it and are sent to their room when paired; a player's knockout shows its invite link, then its
bracket (seeds, byes) once it starts; in id, en and fi, at phone and desktop size."""

from __future__ import annotations

from functools import partial
from typing import Any

import httpx
from sqlalchemy import update
from sqlalchemy.engine import Connection

from bidak.match import ForfeitMatch
from bidak.server.shared.clocks import ManualClock
from bidak.server.shared.store.models import TournamentRow
from tests.web.conftest import DESKTOP, PHONE, screenshot
from tests.web.helpers import set_language, untranslated


def keep(page: Any, name: str) -> None:
    """A screenshot in artifacts/screenshots/; copies of a run's are committed in
    tests/web/screenshots/ for a reviewer (by hand: a test run changes no committed file)."""
    screenshot(page, name)


def test_joining_an_arena_from_the_lobby_then_being_paired(server: Any, pages: Any) -> None:
    clock = ManualClock()
    running = server(clock=clock, arena_every_minutes=0)
    tournaments = running.services.tournaments
    tid = running.call(lambda: tournaments.create_arena("Arena 30", clock.now() + 754, 30, 1, 30))
    alice = pages.new(running.base, PHONE)
    bob = pages.new(running.base, DESKTOP)
    for page in (alice, bob):
        page.goto("/")
        page.wait_for_selector(f'#tour-list [data-tournament="{tid}"]')
    card = alice.inner_text("#tournaments-card")
    assert "Arena 30" in card and "Starts in 12:3" in card  # 754 s, counting down
    assert untranslated(alice) == []
    alice.locator("#tournaments-card").scroll_into_view_if_needed()
    keep(alice, "tournament-lobby-card-phone")

    for page in (alice, bob):
        page.click(f'#tour-list [data-tournament="{tid}"]')
        page.wait_for_selector("#tour-join")
        assert untranslated(page) == []
        page.click("#tour-join")
        page.wait_for_selector("#tour-joined")
    rows = "() => document.querySelectorAll('#tour-standings tbody tr').length === 2"
    alice.wait_for_function(rows)
    keep(alice, "tournament-arena-joined-phone")

    # The arena starts: the two are paired and both pages go to the one room.
    running.call(lambda: clock.advance(755))
    running.call(tournaments.tick)
    for page in (alice, bob):
        page.wait_for_selector("#main svg.board")
    room = alice.url.split("#/room/")[1]
    assert room == bob.url.split("#/room/")[1]

    # Bob gives up; a third player comes. From her finished table Alice is taken to the
    # tournament's page, where her next match waits (Bob may not meet her twice in a row).
    bob_id = bob.evaluate("() => fetch('/api/me').then((r) => r.json())")["id"]
    running.call(lambda: running.services.rooms.submit(room, bob_id, ForfeitMatch, None))
    alice.wait_for_selector("#match-over")
    with httpx.Client(base_url=running.base, headers={"Origin": running.base}) as carol:
        carol.get("/api/me").raise_for_status()
        carol.post(f"/api/tournaments/{tid}/join").raise_for_status()
    running.call(tournaments.tick)
    alice.wait_for_selector("#tour-next #tour-play")
    assert alice.url.endswith(f"#/t/{tid}")
    first = alice.query_selector("#tour-standings tbody tr")
    assert first is not None
    numbers = [cell.inner_text() for cell in first.query_selector_all("td.num")]
    assert numbers[-2:] == ["2", "1"]  # Alice leads: 2 points, 1 played

    alice.goto(f"/#/t/{tid}")
    alice.wait_for_selector("#tour-next #tour-play")
    assert "Ends in" in alice.inner_text("#tour-countdown")
    for code in ("id", "fi"):
        set_language(alice, code)
        assert untranslated(alice) == []
    keep(alice, "tournament-arena-running-phone-fi")


def test_a_knockout_of_ones_own_shows_its_link_then_its_bracket(server: Any, pages: Any) -> None:
    clock = ManualClock()
    running = server(clock=clock, arena_every_minutes=0)
    services = running.services
    carol = pages.new(running.base, PHONE)
    carol.goto("/")
    carol.wait_for_selector("#tour-create")
    carol.click("#tour-create")
    carol.wait_for_selector("#tour-copy")
    tid = carol.url.split("#/t/")[1]
    assert "Starts in 15:00" in carol.inner_text("#tour-countdown")
    keep(carol, "tournament-knockout-open-phone")

    # Four more players open the link and join (their own browsers: HTTP clients here).
    for _ in range(4):
        with httpx.Client(base_url=running.base, headers={"Origin": running.base}) as guest:
            guest.get("/api/me").raise_for_status()
            guest.post(f"/api/tournaments/{tid}/join").raise_for_status()
    start = update(TournamentRow).where(TournamentRow.id == tid).values(starts_at=clock.now())
    running.call(lambda: services.db.write(partial(Connection.execute, statement=start)))
    running.call(services.tournaments.tick)

    carol.wait_for_selector("#tour-bracket .slot")
    rounds = carol.query_selector_all("#tour-bracket .round")
    assert len(rounds) == 3  # 5 players: a bracket of 8, then 4, then the final
    first = rounds[0].query_selector_all(".slot")
    assert [slot.get_attribute("data-how") for slot in first].count("bye") == 3
    assert untranslated(carol) == []
    keep(carol, "tournament-bracket-phone")
    wide = pages.new(running.base, DESKTOP)
    wide.goto(f"/#/t/{tid}")
    wide.wait_for_selector("#tour-bracket .slot")
    set_language(wide, "id")
    assert untranslated(wide) == []
    keep(wide, "tournament-bracket-desktop-id")
