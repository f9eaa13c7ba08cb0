"""Words a player reads as they are meant: plural forms ("1 player"), Indonesian "Ruang teman",
a tournament's kind tag only where its name does not already say it, a finished cup without its
invite link or "You are in.", and a moderator's red "Say why" gone once the action is done."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from typing import Any

import httpx
from sqlalchemy.engine import Connection

from bidak.server.shared.clocks import ManualClock
from bidak.server.shared.store.rows import insert_rows
from bidak.server.tournaments.tables import EntrantRow, TournamentRow
from tests.web.conftest import PHONE, screenshot
from tests.web.helpers import set_language


def test_plural_forms_and_the_indonesian_room(server: Any, pages: Any) -> None:
    running = server()
    page = pages.new(running.base, PHONE)
    page.goto("/")
    page.wait_for_selector("#create-friend")
    say = "([n, lang]) => { const i = window.__bidakI18n; return i.t('tour.players', {n}); }"
    expected = {"en": ("1 player", "2 players"), "fi": ("1 pelaaja", "2 pelaajaa")}
    for lang, (one, two) in expected.items():
        set_language(page, lang)
        assert page.evaluate(say, [1, lang]) == one
        assert page.evaluate(say, [2, lang]) == two
    set_language(page, "id")
    assert page.evaluate(say, [1, "id"]) == "1 pemain"
    assert page.inner_text("#create-friend") == "Buat ruang teman"
    assert "room" not in page.inner_text("main").lower()


def finished_cup(connection: Connection, me: str, now: float) -> None:
    insert_rows(
        connection,
        [
            TournamentRow(
                id="CUPDONE1",
                kind="knockout",
                name="Office cup",
                created_at=datetime.now(UTC),
                starts_at=now - 86400,
                lengths={"rounds": [3]},
                move_seconds=30,
                max_players=8,
                status="finished",
                private=True,
            ),
            EntrantRow(
                tournament_id="CUPDONE1",
                player_id=me,
                rating=1500.0,
                joined_at=now - 90000,
                score=0,
                streak=0,
                wins=0,
                played=1,
                paused=False,
            ),
        ],
    )


def test_tags_and_a_finished_cup(server: Any, pages: Any) -> None:
    clock = ManualClock()
    running = server(clock=clock, arena_every_minutes=0)
    tours = running.services.tournaments
    same = running.call(lambda: tours.create_arena("Arena 30", clock.now() + 600, 30, 1, 30))
    other = running.call(lambda: tours.create_arena("Evening fun", clock.now() + 600, 30, 1, 30))
    page = pages.new(running.base, PHONE)
    page.goto("/")
    page.wait_for_selector(f'#tour-list [data-tournament="{other}"]')
    assert page.query_selector(f'#tour-list [data-tournament="{same}"] .tag') is None
    assert page.inner_text(f'#tour-list [data-tournament="{other}"] .tag') == "Arena"
    me = page.request.get("/api/me").json()["id"]
    running.call(lambda: running.services.db.write(partial(finished_cup, me=me, now=clock.now())))
    page.goto("/#/t/CUPDONE1")
    page.wait_for_selector("#tour-winner, #tour-head")
    assert page.query_selector("#tour-copy") is None
    assert page.query_selector("#tour-joined") is None
    screenshot(page, "tournament-finished-cup-phone")


def test_the_say_why_toast_goes_when_the_action_is_done(server: Any, pages: Any) -> None:
    running = server()
    mod = pages.new(running.base, PHONE)
    mod.goto("/")
    mod.wait_for_selector("#player-name")
    mod_id = mod.request.get("/api/me").json()["id"]
    running.call(lambda: running.services.fairplay.set_moderator(mod_id, True, "web test"))
    with httpx.Client(base_url=running.base, headers={"Origin": running.base}) as guest:
        target = guest.get("/api/me").json()["id"]
    mod.goto(f"/#/mod/{target}")
    mod.reload()  # /api/me asked again: now a moderator
    mod.wait_for_selector("#mod-form")
    mod.select_option("#mod-kind", "mute")
    mod.click("#mod-act")
    mod.wait_for_selector(".toast-error")
    mod.fill("#mod-note", "Abusive phrases after a report")
    mod.click("#mod-act")
    mod.wait_for_selector('#mod-actions .audit-entry[data-kind="mute"]')
    assert mod.query_selector(".toast-error") is None
    assert mod.query_selector(".toast-info")
