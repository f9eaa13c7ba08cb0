"""The account as a player sees it, on two devices: phone A links an e-mail through the Account
panel and confirms it with the link from a real SMTP server (aiosmtpd in the test process);
then laptop B, a guest, asks for a sign-in link through the panel, opens it, presses the one
button, and finds A's name and A's match history in its lobby; A signs B out and removes the
address (with a link again)."""

from __future__ import annotations

import json
import zipfile
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.smtp_sink import SmtpSink, link_in
from tests.web.conftest import DESKTOP, screenshot
from tests.web.helpers import (
    set_language,
    start_practice,
    untranslated,
    wait_for_my_move_or_end,
)
from tests.web.test_i18n import check_all_languages

PHONE = {"width": 390, "height": 844}
ADDRESS = "budi.santoso@example.com"
MASKED = "b***o@example.com"


@pytest.fixture
def sink() -> Iterator[SmtpSink]:
    running = SmtpSink()
    running.controller.start()
    try:
        yield running
    finally:
        running.controller.stop()


def shots(page: Any, name: str) -> None:
    """``name``-phone and ``name``-desktop, scrolled to the top."""
    for size, label in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page.set_viewport_size(size)
        page.evaluate("window.scrollTo(0, 0)")
        screenshot(page, f"{name}-{label}")
    page.set_viewport_size(PHONE)


def text(page: Any, selector: str) -> str:
    """What is shown, without the invisible marks that isolate a name in a sentence."""
    shown: str = page.inner_text(selector)
    return shown.replace("\u2068", "").replace("\u2069", "")


def open_link(page: Any, link: str, state: str = "ready") -> None:
    page.goto(link)
    page.wait_for_selector(f"#link-card[data-state='{state}']")


def test_link_an_address_on_one_device_and_sign_in_with_it_on_another(
    server: Any, pages: Any, sink: SmtpSink
) -> None:
    running = server(smtp_url=sink.url)
    a = pages.new(running.base, PHONE)
    a.goto("/")
    a.click("#rename")
    a.fill("#name-input", "Budi")
    a.click("#name-save")
    a.wait_for_selector("#player-name:text-is('Budi')")
    # The guest notice says what a guest without an address keeps, and where.
    assert "in this browser only" in a.inner_text("#guest-warning")

    # A finishes a match (resigning it), so that there is history to carry to B.
    start_practice(a, "beginner", 1)
    assert wait_for_my_move_or_end(a) != "over"
    a.click("#btn-resign")
    a.click("#btn-forfeit")
    a.click("#confirm-forfeit")
    a.wait_for_selector("#match-over")
    a.click("#btn-lobby")
    a.wait_for_selector("#history .history-item")
    match_id = a.get_attribute("#history .history-item", "data-match")

    # The Account panel of a guest: an address form, sign in here, sessions, data.
    a.click("#open-account")
    a.wait_for_selector("#sessions .session-item.current")
    assert a.locator("#sessions .session-item").count() == 1
    assert a.locator("#linked-address").count() == 0
    assert untranslated(a) == []
    shots(a, "account-guest")
    check_all_languages(a)
    set_language(a, "en")

    # Not an address: said at once, nothing sent.
    a.fill("#email-input", "budi at example")
    a.click("#email-send")
    a.wait_for_selector("#email-error:has-text('not an e-mail address')")
    assert sink.letters == []

    a.fill("#email-input", ADDRESS)
    a.click("#email-send")
    a.wait_for_selector("#email-sent")
    assert f"Check your inbox at {ADDRESS}" in a.inner_text("#email-sent")
    assert a.locator("#email-sent-log").count() == 0  # a real mail server: no log note
    assert untranslated(a) == []
    shots(a, "account-pending")

    # The link, opened in A: a preview, one button, nothing used before the click.
    link = link_in(sink.received(ADDRESS))
    open_link(a, link)
    a.reload()  # fetching the page again (as a mail scanner would) uses nothing
    a.wait_for_selector("#link-card[data-state='ready']")
    assert a.inner_text("#link-go") == f"Confirm {MASKED}"
    assert "Budi" in text(a, "#link-card")
    assert untranslated(a) == []
    shots(a, "email-link-confirm")
    a.click("#link-go")
    a.wait_for_selector("#link-card[data-state='done']")
    assert "Your address is confirmed" in text(a, "#link-card")
    screenshot(a, "email-link-done-phone")
    a.click("#link-lobby")
    a.wait_for_selector("#saved-note")
    assert a.url == f"{running.base}/"
    assert MASKED in a.inner_text("#saved-note")
    assert a.locator("#guest-warning").count() == 0
    # The same link again: used, with the way back.
    open_link(a, link, "used")
    assert a.locator("#link-go").count() == 0
    a.click("#link-lobby")
    a.wait_for_selector("#saved-note")

    # B: another device, a guest of its own, signs in through its Account panel.
    b = pages.new(running.base, DESKTOP)
    b.goto("/")
    b.wait_for_selector("#guest-warning")
    assert b.inner_text("#player-name") != "Budi"
    b.click("#open-account")
    b.wait_for_selector("#signin-input")
    b.fill("#signin-input", ADDRESS.upper())
    b.click("#signin-send")
    b.wait_for_selector("#signin-sent")
    assert ADDRESS.upper() in b.inner_text("#signin-sent")

    sign_in = link_in(sink.received(ADDRESS, 2))
    open_link(b, sign_in)
    assert text(b, "#link-go") == "Sign in as Budi"
    shots(b, "email-link-sign-in")
    b.set_viewport_size(DESKTOP)
    b.click("#link-go")
    b.wait_for_selector("#link-card[data-state='done']")
    assert "You are signed in as Budi" in text(b, "#link-card")
    b.click("#link-lobby")
    b.wait_for_selector("#player-name:text-is('Budi')")
    b.wait_for_selector(f"#history .history-item[data-match='{match_id}']")
    assert MASKED in b.inner_text("#saved-note")
    screenshot(b, "lobby-signed-in-desktop")

    # A's panel now: the linked address, and two signed-in browsers, A's own marked.
    a.goto("/#/account")
    a.wait_for_selector("#masked-address")
    assert a.inner_text("#masked-address") == MASKED
    a.wait_for_function("() => document.querySelectorAll('#sessions .session-item').length === 2")
    assert a.locator("#sessions .session-item.current").count() == 1
    assert untranslated(a) == []
    shots(a, "account-linked")
    check_all_languages(a)
    set_language(a, "en")

    # The export, as a download: the account and the finished match as .mat.
    with a.expect_download() as download:
        a.click("#export")
    assert download.value.suggested_filename == "bidak-account.zip"
    with zipfile.ZipFile(download.value.path()) as archive:
        assert f"matches/{match_id}.mat" in archive.namelist()
        assert json.loads(archive.read("account.json"))["account"]["name"] == "Budi"

    # A signs B out from its list; B's next visit is a new guest.
    a.click("#sessions .session-item:not(.current) [data-end]")
    a.wait_for_function("() => document.querySelectorAll('#sessions .session-item').length === 1")
    b.goto("/")
    b.wait_for_selector("#guest-warning")
    assert b.inner_text("#player-name") != "Budi"

    # Removing the address takes a link to it too; then A is told it is a guest again.
    a.click("#remove-email")
    a.wait_for_selector("#email-sent")
    assert f"Check your inbox at {MASKED}" in a.inner_text("#email-sent")
    open_link(a, link_in(sink.received(ADDRESS, 3)))
    assert a.inner_text("#link-go") == "Remove the address"
    a.click("#link-go")
    a.wait_for_selector("#link-card[data-state='done']")
    assert "The address is removed" in text(a, "#link-card")
    a.click("#link-lobby")
    a.wait_for_selector("#guest-warning")
    assert a.inner_text("#player-name") == "Budi"


def test_the_link_page_says_when_a_link_is_unknown(server: Any, pages: Any) -> None:
    running = server()
    page = pages.new(running.base, PHONE)
    open_link(page, "/auth/email?token=" + "x" * 43, "invalid")
    assert "not valid" in page.inner_text("#link-card")
    assert untranslated(page) == []
    page.click("#link-lobby")
    page.wait_for_selector("#guest-warning")
    # The preview's 404 is the answer the page expects (Chromium logs every failed fetch).
    pages.errors[:] = [e for e in pages.errors if "status of 404" not in e]


def test_a_guest_sees_the_log_note_the_limit_and_deletes_itself(server: Any, pages: Any) -> None:
    running = server()  # no SMTP URL: a development server writes letters to its log
    page = pages.new(running.base, PHONE)
    page.goto("/#/account")
    page.wait_for_selector("#sessions .session-item.current")
    for attempt in range(4):
        page.fill("#email-input", "ani@example.com")
        page.click("#email-send")
        if attempt < 3:
            page.wait_for_selector("#email-sent-log")
            assert "writes letters to its log" in page.inner_text("#email-sent")
            page.click("#email-again")
    # The fourth link for one address within the hour: when to try again (Retry-After).
    page.wait_for_selector("#email-error:has-text('Try again in')")
    assert "minutes" in page.inner_text("#email-error")
    assert untranslated(page) == []
    pages.errors[:] = [e for e in pages.errors if "status of 429" not in e]

    # A guest without an address: deleted at once, after the dialog; the next visit is new.
    guest = page.evaluate("fetch('/api/me').then((r) => r.json())")
    page.click("#delete-account")
    page.wait_for_selector("#delete-dialog")
    assert "deleted now" in page.inner_text("#delete-dialog")
    page.click("#delete-confirm")
    page.wait_for_url(f"{running.base}/")
    page.wait_for_selector("#guest-warning")
    again = page.evaluate("fetch('/api/me').then((r) => r.json())")
    assert again["id"] != guest["id"]


def test_the_account_page_keeps_what_is_typed_when_the_moderators_list_arrives(
    server: Any, pages: Any
) -> None:
    """The list of what moderators did arrives after the page is drawn: it fills its own card
    and leaves the sign-in field as it is (the same field, its text, the focus), so a phone's
    keyboard stays open and a tap in progress is not lost."""
    running = server()
    page = pages.new(running.base, PHONE)
    held: list[Any] = []

    def hold(route: Any) -> None:
        held.append(route)  # answered only when the test lets it

    page.route("**/api/me/actions", hold)
    page.goto("/#/account")
    page.wait_for_selector("#sessions .session-item.current")
    page.wait_for_function("() => document.querySelector('#account-audit .spinner')")
    page.fill("#signin-input", "half@typed")
    page.evaluate("document.querySelector('#signin-input').dataset.mark = 'typed here'")
    assert held, "the list was asked for"
    held[0].continue_()
    page.wait_for_function("() => !document.querySelector('#account-audit .spinner')")
    assert page.evaluate("document.activeElement.dataset.mark") == "typed here"
    assert page.input_value("#signin-input") == "half@typed"
