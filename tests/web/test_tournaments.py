"""Tournaments through the page: the lobby's card counts down to a site arena, two players join
it and are sent to their room when paired; a player's knockout shows its invite link, then its
bracket (seeds, byes) once it starts; in id, en and fi, at phone and desktop size."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from typing import Any

import httpx
from sqlalchemy import update
from sqlalchemy.engine import Connection

from bidak.match import ForfeitMatch
from bidak.server.shared.clocks import ManualClock
from bidak.server.shared.store.rows import insert_rows
from bidak.server.tournaments.tables import EntrantRow, TournamentMatchRow, TournamentRow
from bidak.tournament import advance, new_bracket
from bidak.tournament.knockout import to_json
from tests.server.harness import link_addresses
from tests.web.conftest import DESKTOP, PHONE, screenshot
from tests.web.helpers import set_language, untranslated
from tests.web.layout import layout_problems


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
    # The countdown moves on without the item being drawn again (a tap on it is never lost).
    item = f'#tour-list [data-tournament="{tid}"]'
    alice.evaluate(f"document.querySelector('{item}').dataset.mark = 'tapped'")
    shown = alice.inner_text(f"{item} .tour-clock")
    alice.wait_for_function(
        "([item, shown]) => document.querySelector(item + ' .tour-clock').textContent !== shown",
        arg=[item, shown],
    )
    assert alice.evaluate(f"document.querySelector('{item}').dataset.mark") == "tapped"
    assert untranslated(alice) == []
    alice.locator("#tournaments-card").scroll_into_view_if_needed()
    keep(alice, "tournament-lobby-card-phone")

    for page in (alice, bob):
        page.click(f'#tour-list [data-tournament="{tid}"]')
        page.wait_for_selector("#tour-join")
        # A guest hears before joining that their matches will be unrated.
        assert "unrated" in page.inner_text("#tour-guest-unrated")
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

    # Bob gives up; a third player comes. From her finished table Alice is taken to her next
    # table at once (Bob may not meet her twice in a row), which waits for Carol to come; its
    # bar leads back to the tournament's standings, where her next match waits.
    bob_id = bob.evaluate("() => fetch('/api/me').then((r) => r.json())")["id"]
    running.call(lambda: running.services.rooms.submit(room, bob_id, ForfeitMatch, None))
    alice.wait_for_selector("#match-over")
    with httpx.Client(base_url=running.base, headers={"Origin": running.base}) as carol:
        carol.get("/api/me").raise_for_status()
        carol.post(f"/api/tournaments/{tid}/join").raise_for_status()
    running.call(tournaments.tick)
    alice.wait_for_function(
        "(room) => location.hash.startsWith('#/room/') && location.hash !== '#/room/' + room",
        arg=room,
    )
    alice.wait_for_selector("#tour-table-waiting")
    assert untranslated(alice) == []
    keep(alice, "tournament-table-waiting-phone")
    alice.click("#tour-bar-standings")
    alice.wait_for_selector("#tour-next #tour-play")
    assert alice.url.endswith(f"#/t/{tid}")
    first = alice.query_selector("#tour-standings tbody tr")
    assert first is not None
    numbers = [cell.inner_text() for cell in first.query_selector_all("td.num")]
    assert numbers[-2:] == ["2", "1"]  # Alice leads: 2 points, 1 played
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
    # A knockout is made by an account that lasts: Carol has linked her address.
    me = carol.evaluate("fetch('/api/me').then((r) => r.json())")
    running.call(lambda: link_addresses(running, me["id"]))
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

    # Carol has a first-round match or a bye (the seeds of equal ratings go by id): with a
    # match, her page goes to its table, whose bar leads to the bracket.
    carol.wait_for_selector("#tour-bracket .slot, #tour-bar-standings")
    if "#/room/" in carol.url:
        carol.click("#tour-bar-standings")
    carol.wait_for_selector("#tour-bracket .slot")
    rounds = carol.query_selector_all("#tour-bracket .round")
    assert len(rounds) == 3  # 5 players: a bracket of 8, then 4, then the final
    first = rounds[0].query_selector_all(".slot")
    assert [slot.get_attribute("data-how") for slot in first].count("bye") == 3
    assert untranslated(carol) == []
    keep(carol, "tournament-bracket-phone")

    # Scrolled sideways to the later rounds on a phone, the bracket stays there while the page
    # asks again for the tournament (every 5 s: it redrew the bracket at its first round).
    bracket = "document.querySelector('.bracket')"
    carol.evaluate(f"{bracket}.scrollLeft = 10000; {bracket}.dataset.mark = 'scrolled'")
    scrolled = carol.evaluate(f"{bracket}.scrollLeft")
    assert scrolled > 0, "the bracket is wider than a phone"
    for _ in range(2):  # the first answer has been taken in by the time the second comes
        with carol.expect_response(lambda answer: answer.url.endswith(tid), timeout=15_000):
            pass
    assert carol.evaluate(f"{bracket}.dataset.mark") == "scrolled"
    assert carol.evaluate(f"{bracket}.scrollLeft") == scrolled
    wide = pages.new(running.base, DESKTOP)
    wide.goto(f"/#/t/{tid}")
    wide.wait_for_selector("#tour-bracket .slot")
    set_language(wide, "id")
    assert untranslated(wide) == []
    keep(wide, "tournament-bracket-desktop-id")


def finish_tournaments(connection: Connection, me: str, others: list[str], now: float) -> None:
    """Tournaments that ended, as their runners leave them: two arenas (the player first, then
    second), a knockout of friends the player won, a site knockout they lost in the semi-final,
    and an arena far down the table (no trophy)."""

    def tournament(tid: str, kind: str, name: str, starts: float, **extra: Any) -> None:
        insert_rows(
            connection,
            [
                TournamentRow(
                    id=tid,
                    kind=kind,
                    name=name,
                    created_at=datetime.now(UTC),
                    starts_at=starts,
                    lengths={"rounds": [3]},
                    move_seconds=30,
                    max_players=16,
                    status="finished",
                    **extra,
                )
            ],
        )

    def entrants(tid: str, table: list[tuple[str, int, int]]) -> None:
        insert_rows(
            connection,
            [
                EntrantRow(
                    tournament_id=tid,
                    player_id=p,
                    rating=1500.0,
                    joined_at=now,
                    score=score,
                    streak=0,
                    wins=wins,
                    played=wins + 1,
                    paused=False,
                )
                for p, score, wins in table
            ],
        )

    def knockout(tid: str, name: str, starts: float, champion: str, private: bool) -> None:
        # The champion is seed 1 and the player, when not champion, seed 5: they meet in a
        # semi-final. The player wins every other match.
        ratings = {p: 1500.0 + i for i, p in enumerate(others)} | {me: 1000.0, champion: 2000.0}
        bracket = new_bracket(ratings)
        while (number := bracket.current_round) is not None:
            for _, index, slot in bracket.playable():
                assert slot.a is not None and slot.b is not None
                seats = (slot.a, slot.b)
                won = champion if champion in seats else me if me in seats else min(seats)
                bracket = advance(bracket, number, index, won)
        tournament(tid, "knockout", name, starts, bracket=to_json(bracket), private=private)
        entrants(tid, [(p, 0, 0) for p in [me, *others]])

    day = 86400
    tournament("ARENA1", "arena", "Arena 30", now - 1 * day, ends_at=now - day + 1800)
    entrants("ARENA1", [(me, 14, 5), (others[0], 8, 4), (others[1], 4, 2), (others[2], 0, 0)])
    knockout("CUP1", "Friday night cup with the whole office", now - 2 * day, me, True)
    tournament("ARENA2", "arena", "Arena 60", now - 3 * day, ends_at=now - 3 * day + 3600)
    entrants("ARENA2", [(others[0], 12, 5), (me, 10, 4), (others[1], 2, 1)])
    knockout("SITE1", "Knockout 16", now - 4 * day, others[0], False)
    tournament("ARENA3", "arena", "Arena 30", now - 5 * day, ends_at=now - 5 * day + 1800)
    entrants("ARENA3", [(others[i], 20 - i, 5) for i in range(4)] + [(me, 2, 1)])
    # The player's arena matches: three decided (two won), one not yet.
    insert_rows(
        connection,
        [
            TournamentMatchRow(
                room_code=f"ARENA1-{i}",
                tournament_id="ARENA1",
                seat0_id=me,
                seat1_id=others[i],
                length=3,
                created_at=now - day,
                winner_id=winner,
                how=None if winner is None else "played",
            )
            for i, winner in enumerate([me, others[1], me, None])
        ],
    )


def test_a_profile_shows_tournament_places_and_trophies(server: Any, pages: Any) -> None:
    clock = ManualClock()
    running = server(clock=clock, arena_every_minutes=0)
    alice = pages.new(running.base, PHONE)
    alice.goto("/")
    me = alice.evaluate("() => fetch('/api/me').then((r) => r.json())")["id"]
    others = []
    for _ in range(4):
        with httpx.Client(base_url=running.base, headers={"Origin": running.base}) as guest:
            others.append(guest.get("/api/me").json()["id"])
    write = partial(finish_tournaments, me=me, others=others, now=clock.now())
    running.call(lambda: running.services.db.write(write))

    alice.goto(f"/#/player/{me}")
    alice.wait_for_selector("#tournament-results")
    trophies = [t.get_attribute("data-trophy") for t in alice.query_selector_all("#trophies li")]
    assert trophies == ["arena-1", "knockout-1", "arena-2", "knockout-3"]
    lines = alice.query_selector_all("#tournament-results li")
    assert [line.get_attribute("data-tournament") for line in lines] == [
        "ARENA1",
        "",  # a private knockout: its id is its invite, so no link
        "ARENA2",
        "SITE1",
        "ARENA3",
    ]
    # A guest: no rating figure, and the tournament matches counted (unrated as they are).
    assert alice.inner_text("#stat-rating") == "Unrated (guest)"
    assert alice.query_selector("#stat-played") is None
    assert alice.inner_text("#stat-tournament") == "3, won 2"
    places = [line.inner_text().split("\n")[-1] for line in lines]
    assert places == [
        "Place 1 of 4",
        "Place 1 of 5",
        "Place 2 of 3",
        "Place 3 of 5",
        "Place 5 of 5",
    ]
    assert untranslated(alice) == []
    problems, _ = layout_problems(alice, [])
    assert problems == []
    alice.locator("#profile-tournaments").scroll_into_view_if_needed()
    keep(alice, "profile-tournaments-phone")
    for code in ("id", "fi"):
        set_language(alice, code)
        assert untranslated(alice) == []
        problems, _ = layout_problems(alice, [])
        assert problems == [], code
    keep(alice, "profile-tournaments-phone-fi")

    wide = pages.new(running.base, DESKTOP)
    wide.goto(f"/#/player/{me}")
    wide.wait_for_selector("#tournament-results")
    set_language(wide, "id")
    assert untranslated(wide) == []
    keep(wide, "profile-tournaments-desktop-id")
    wide.click('#tournament-results [data-tournament="ARENA1"] a')
    wide.wait_for_selector("#tour-standings")


def test_the_sites_knockout_is_in_the_lobby_for_anyone_to_join(server: Any, pages: Any) -> None:
    clock = ManualClock()  # 08:00 UTC: the next half-hour slot starts in 30 minutes
    running = server(
        clock=clock, arena_every_minutes=0, knockout_every_minutes=30, knockout_players=8
    )
    dana = pages.new(running.base, PHONE)
    dana.goto("/")
    dana.wait_for_selector("#tour-list [data-tournament]")
    card = dana.inner_text("#tournaments-card")
    assert "Knockout 8" in card and "Starts in 30:00" in card
    dana.click("#tour-list [data-tournament]")
    dana.wait_for_selector("#tour-join")
    assert dana.query_selector("#tour-copy") is None  # the site's: no invite link to share
    dana.click("#tour-join")
    dana.wait_for_selector("#tour-joined")
    assert "1 of 8 players" in dana.inner_text("#main")
    assert untranslated(dana) == []
    keep(dana, "tournament-site-knockout-phone")
