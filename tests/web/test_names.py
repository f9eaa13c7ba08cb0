"""A refused name is explained in the player's language; a table opened in too many tabs says so."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import PHONE, screenshot
from tests.web.helpers import set_language, start_practice


def rename(page: Any, name: str, status: int = 422) -> None:
    if not page.locator("#name-input").count():  # still open after a refusal
        page.click("#rename")
    page.fill("#name-input", name)
    with page.expect_response(
        lambda r: r.url.endswith("/api/me") and r.request.method == "PATCH"
    ) as answer:
        page.click("#name-save")
    assert answer.value.status == status, (name, answer.value.text())


def test_a_refused_name_says_why_in_the_players_language(server: Any, pages: Any) -> None:
    running = server()
    page = pages.new(running.base, PHONE)
    page.goto("/")
    page.wait_for_selector("#player-name")
    # The lobby draws itself again when the history arrives (the name editor with it).
    page.wait_for_selector("#history .spinner", state="detached")
    before = page.inner_text("#player-name")
    for language, reserved, characters in [
        ("fi", "botin nimeltä", "suuntaa muuttavia"),
        ("id", "atau bot", "pengubah arah"),
        ("en", "a bot's", "direction-changing"),
    ]:
        set_language(page, language)  # the lobby is drawn again in it (the name editor too)
        rename(page, "Bot (expert)")
        page.wait_for_selector(".toast-error")
        assert reserved in page.inner_text(".toast-error")
        if language == "fi":
            screenshot(page, "name-reserved-phone-fi")
        page.evaluate("document.querySelectorAll('.toast').forEach((t) => t.remove())")
        rename(page, "Budi\u202eosotnaS")
        page.wait_for_selector(".toast-error")
        assert characters in page.inner_text(".toast-error")
        page.evaluate("document.querySelectorAll('.toast').forEach((t) => t.remove())")
    page.press("#name-input", "Escape")
    assert page.inner_text("#player-name") == before, "nothing changed"
    rename(page, "Ｂｕｄｉ  Santoso", 200)
    page.wait_for_selector("#player-name")
    assert page.inner_text("#player-name") == "Budi Santoso"
    assert page.get_attribute("#player-name", "dir") == "auto", "isolated from the text around"
    # The browser logs each refused request itself; nothing else may have gone wrong.
    pages.errors[:] = [e for e in pages.errors if "status of 422" not in e]


def test_a_table_open_in_too_many_tabs_closes_the_oldest_and_says_so(
    server: Any, pages: Any
) -> None:
    running = server(sockets_per_session=1)
    first = pages.new(running.base, PHONE)
    first.goto("/")
    set_language(first, "id")
    start_practice(first, "beginner", length=None)
    first.wait_for_selector("#main svg.board")
    second = first.context.new_page()
    second.goto(first.url)
    second.wait_for_selector("#main svg.board")
    first.wait_for_function("document.body.dataset.connection === 'replaced'")
    assert "terlalu banyak tab" in first.inner_text("body")
    screenshot(first, "table-replaced-phone-id")
    second.wait_for_function("document.body.dataset.connection === 'open'")
    assert len(running.services.sockets) == 1, "the replaced tab did not come back"
