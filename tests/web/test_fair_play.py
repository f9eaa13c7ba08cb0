"""Fair play in the browser: a player reports the opponent from the table, the report reaches
the moderators' queue, a moderator mutes the player with a reason, and the player finds the
entry on their own account page; a non-moderator is shown no queue. Screenshots at phone and
desktop size."""

from __future__ import annotations

from typing import Any

from bidak.fairplay import figures_of
from tests.web.conftest import DESKTOP, PHONE, screenshot
from tests.web.helpers import untranslated


def my_id(page: Any) -> str:
    found: str = page.evaluate("fetch('/api/me').then((r) => r.json()).then((me) => me.id)")
    return found


def test_a_report_reaches_the_queue_and_a_moderator_acts(server: Any, pages: Any) -> None:
    running = server()
    alice = pages.new(running.base, PHONE)
    bob = pages.new(running.base, DESKTOP)
    mod = pages.new(running.base, DESKTOP)

    alice.goto("/")
    alice.click("#create-friend")
    link = alice.input_value("#invite-link")
    bob.goto(link)
    alice.wait_for_selector("#main svg.board")
    bob.wait_for_selector("#main svg.board")
    bob_id = my_id(bob)

    alice.wait_for_selector("#report-open").scroll_into_view_if_needed()
    screenshot(alice, "report-button-phone")
    alice.click("#report-open")
    alice.wait_for_selector("#report-dialog")
    alice.check('#report-reasons input[value="talk"]')
    alice.fill("#report-note", "Says sorry forty times a game")
    assert untranslated(alice) == []
    screenshot(alice, "report-dialog-phone")
    alice.click("#report-send")
    alice.wait_for_selector(".toast [data-i18n='report.sent']")
    # A second report of the same match is refused, politely.
    alice.click("#report-open")
    alice.click("#report-send")
    alice.wait_for_selector(".toast [data-i18n='report.already']")
    assert pages.errors == [
        "Failed to load resource: the server responded with a status of 409 (Conflict)"
    ]
    pages.errors.clear()  # the browser logs the refused request, and only that

    # Bob is no moderator: the page says so (and asks nothing the server would refuse).
    bob.goto("/#/mod")
    bob.wait_for_selector("#mod-error[data-i18n='mod.forbidden']")

    # The figures a background review would leave for Bob's match (the match is still in play).
    code = link.rsplit("/", 1)[-1]
    match_id = alice.evaluate(
        f"fetch('/api/rooms/{code}').then((r) => r.json()).then((x) => x.match_id)"
    )
    figures = figures_of(
        [0.004 * (i % 5 == 0) for i in range(120)], [7.5 + (i % 3) for i in range(90)]
    )
    running.call(
        lambda: running.services.fairplay.store_figures(match_id, bob_id, 2, figures, False)
    )

    mod.goto("/")
    mod_id = my_id(mod)
    running.call(lambda: running.services.fairplay.set_moderator(mod_id, True, "web test"))
    mod.goto("/#/account")
    mod.reload()  # the role counts from the next page load
    mod.click("#open-moderation")
    case = mod.wait_for_selector(f'.mod-case[data-player="{bob_id}"]')
    assert case.query_selector('[data-badge="reported"]') is not None
    assert "Abusive talk" in case.inner_text()
    assert untranslated(mod) == []
    screenshot(mod, "mod-queue-desktop")
    case.query_selector("a").click()
    mod.wait_for_selector("#mod-player")
    assert "Says sorry forty times a game" in mod.inner_text("#mod-reports")
    assert "0.40" in mod.inner_text("#mod-history")  # the match's PR: 500 x 0.096 / 120
    mod.select_option("#mod-kind", "mute")
    mod.fill("#mod-note", "Repeated phrases after a report; muted for now")
    mod.click("#mod-act")
    mod.wait_for_selector(".toast [data-i18n='mod.done']")
    mod.wait_for_selector('#mod-actions .audit-entry[data-kind="mute"]')
    mod.wait_for_selector('[data-badge="muted"]')
    assert mod.query_selector("#mod-reports .mod-report.open") is None  # acted on: closed
    assert untranslated(mod) == []
    screenshot(mod, "mod-case-desktop")

    # Bob sees what was done and why on his own account page, in each language.
    bob.goto("/#/account")
    entry = bob.wait_for_selector('#account-audit .audit-entry[data-kind="mute"]')
    assert "Repeated phrases after a report" in entry.inner_text()
    assert bob.query_selector("#open-moderation") is None
    entry.scroll_into_view_if_needed()
    screenshot(bob, "account-audit-desktop")
    moderated = running.call(lambda: running.services.store.player(bob_id))
    assert moderated is not None and moderated.talk_muted
