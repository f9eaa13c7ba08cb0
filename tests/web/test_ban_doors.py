"""A ban into every door, in browsers: a moderator bans a player from play on the case page; the
player, on a phone, finds Quick match, a friend's link and a tournament refused with the reason in
their language, still plays against a bot, reads the entry on their account page, and signs in to
an account from that browser without leaving the ban behind. Screenshots at 390x844."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import Any

import pytest
from sqlalchemy import update
from sqlalchemy.engine import Connection

from bidak.server.shared.store.models import PlayerRow
from tests.server.smtp_sink import SmtpSink, link_in
from tests.web.conftest import DESKTOP, PHONE, screenshot
from tests.web.helpers import set_language, start_practice, untranslated


def my_id(page: Any) -> str:
    found: str = page.evaluate("fetch('/api/me').then((r) => r.json()).then((me) => me.id)")
    return found


@pytest.fixture
def sink() -> Iterator[SmtpSink]:
    running = SmtpSink()
    running.controller.start()
    try:
        yield running
    finally:
        running.controller.stop()


def test_a_ban_from_play_shuts_every_door_the_player_tries(
    server: Any, pages: Any, sink: SmtpSink
) -> None:
    running = server(arena_every_minutes=0, smtp_url=sink.url)
    mod = pages.new(running.base, DESKTOP)
    eve = pages.new(running.base, PHONE)
    friend = pages.new(running.base, DESKTOP)

    eve.goto("/")
    eve_id = my_id(eve)
    mod.goto("/")
    mod_id = my_id(mod)
    running.call(lambda: running.services.fairplay.set_moderator(mod_id, True, "web test"))

    # The moderator finds Eve's case by its address and bans her from play.
    mod.goto(f"/#/mod/{eve_id}")
    mod.reload()
    mod.wait_for_selector("#mod-player")
    mod.select_option("#mod-kind", "ban_play")
    mod.fill("#mod-note", "Abuse in table talk after two warnings")
    mod.click("#mod-act")
    mod.wait_for_selector(".toast [data-i18n='mod.done']")
    mod.wait_for_selector('[data-badge="banned-play"]')
    assert untranslated(mod) == []
    screenshot(mod, "ban-mod-case-desktop")

    # Quick match: refused with the reason, in her language.
    eve.goto("/")
    eve.click("#quick-start")
    eve.wait_for_selector(".toast [data-i18n='refusal.banned']")
    assert eve.query_selector("#quick-waiting") is None
    screenshot(eve, "ban-quick-refused-phone")
    set_language(eve, "id")
    eve.click("#quick-start")
    eve.wait_for_selector(".toast :text('Moderator melarangmu bermain')")
    set_language(eve, "en")

    # A friend's link: the table says why instead of seating her.
    friend.goto("/")
    friend.click("#create-friend")
    link = friend.input_value("#invite-link")
    eve.goto(link)
    heading = eve.wait_for_selector("[data-i18n='refusal.banned']")
    assert "banned you from play" in heading.inner_text()
    screenshot(eve, "ban-friend-link-phone")

    # A tournament: refused on its page too.
    arena = running.call(
        lambda: running.services.tournaments.create_arena(
            "Evening arena", running.services.clock.now() + 600, 30, 1, 90
        )
    )
    eve.goto(f"/#/t/{arena}")
    eve.click("#tour-join")
    eve.wait_for_selector(".toast [data-i18n='refusal.banned']")

    # What a ban leaves open: a practice match against a bot.
    eve.goto("/")
    start_practice(eve)

    # Her account page says what was done and why.
    eve.goto("/#/account")
    entry = eve.wait_for_selector('#account-audit .audit-entry[data-kind="ban_play"]')
    assert "Abuse in table talk" in entry.inner_text()
    entry.scroll_into_view_if_needed()
    assert untranslated(eve) == []
    screenshot(eve, "ban-account-phone")

    # Signing in to an account from her browser does not leave the ban behind.
    owner = my_id(friend)
    address = "owner@example.com"
    linked = update(PlayerRow).where(PlayerRow.id == owner).values(email=address)
    running.call(lambda: running.services.db.write(partial(Connection.execute, statement=linked)))
    eve.goto("/#/account")
    eve.fill("#signin-input", address)
    eve.click("#signin-send")
    eve.wait_for_selector("#signin-sent")
    eve.goto(link_in(sink.received(address)))
    eve.wait_for_selector("#link-card[data-state='ready']")
    eve.click("#link-go")
    eve.wait_for_selector("#link-card[data-state='done']")
    eve.goto("/")
    eve.click("#quick-start")
    eve.wait_for_selector(".toast [data-i18n='refusal.banned']")
    mod.goto("/#/mod")
    mod.reload()
    case = mod.wait_for_selector(f'.mod-case[data-player="{owner}"]')
    assert case.query_selector('[data-badge="held"]') is not None
    screenshot(mod, "ban-held-queue-desktop")
    assert [e for e in pages.errors if "403" not in e] == []
    pages.errors.clear()  # the browser logs each refused request
