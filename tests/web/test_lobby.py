"""The lobby: drawn in the first paint, and no cube choice where a match has no cube."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import DESKTOP, screenshot
from tests.web.helpers import untranslated

PHONE = {"width": 390, "height": 844}  # the size the issue names
CARDS_NOW = """() => ['practice-card', 'friend-card', 'join-card', 'profile-card'].map((id) => {
  const el = document.getElementById(id);
  const box = el && el.getBoundingClientRect();
  return !!box && box.width > 0 && box.height > 0 && el.innerText.trim().length > 0;
})"""


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_lobby_cards_are_there_when_the_page_has_loaded(
    server: Any, pages: Any, size: dict[str, int]
) -> None:
    running = server()
    page = pages.new(running.base, size)
    cookies: list[str] = []

    def sets_cookie(response: Any) -> None:
        if response.header_value("set-cookie"):
            cookies.append(response.url)

    page.on("response", sets_cookie)
    page.goto("/", wait_until="load")
    # Right at `load`, without waiting for anything: the cards are drawn, in words.
    assert page.evaluate(CARDS_NOW) == [True, True, True, True]
    name = "phone" if size is PHONE else "desktop"
    screenshot(page, f"lobby-at-load-{name}")
    # The account fills in when /api/me answers; the history after it.
    page.wait_for_selector("#player-name:not(:text-is('…'))")
    page.wait_for_selector("#history li:not(:has(.spinner))")
    assert untranslated(page) == []
    # A first visit makes one guest: nothing else was asked before /api/me set the cookie.
    assert [url.split("/", 3)[3] for url in cookies] == ["api/me"]


@pytest.mark.parametrize("card", ["practice", "friend"])
def test_a_one_point_match_offers_no_cube_and_says_why(server: Any, pages: Any, card: str) -> None:
    running = server()
    page = pages.new(running.base, PHONE)
    page.goto("/")
    toggle = f'[data-name="{card}-cube"]'
    page.click(f'[data-name="{card}-length"] [data-value="3"]')
    assert page.locator(toggle).is_visible()
    page.click(f'[data-name="{card}-length"] [data-value="1"]')
    assert page.locator(toggle).count() == 0
    reason = page.locator(f"#{card}-cube-none")
    assert reason.is_visible()
    assert reason.inner_text() == "A 1-point match does not use the doubling cube."
    page.locator(f"#{card}-card").scroll_into_view_if_needed()
    screenshot(page, f"lobby-{card}-one-point-phone")
    # The focus stays on the length just picked, and the choice is remembered.
    assert page.evaluate("document.activeElement.dataset.value") == "1"
    page.reload()
    assert page.locator(toggle).count() == 0
    # Back to 5 points: the toggle returns with its earlier choice.
    page.click(f'[data-name="{card}-length"] [data-value="5"]')
    assert page.locator(f'{toggle} [aria-checked="true"]').get_attribute("data-value") == "true"


def test_the_lobby_works_while_the_account_is_on_its_way(server: Any, pages: Any) -> None:
    running = server()
    page = pages.new(running.base, PHONE)
    held: list[Any] = []
    asked: list[str] = []

    def hold(route: Any) -> None:
        held.append(route)  # /api/me answers only when the test lets it

    page.route("**/api/me", hold)
    page.on("request", lambda request: asked.append(request.url.split("/", 3)[3]))
    page.goto("/", wait_until="load")
    page.wait_for_function("() => document.getElementById('player-name')")
    assert page.evaluate(CARDS_NOW) == [True, True, True, True]
    assert page.inner_text("#player-name") == "…" and page.is_disabled("#rename")
    page.fill("#join-code", "half-typed")
    # Nothing that needs the account goes out before it is there (one guest per visitor).
    assert [a for a in asked if a.startswith("api/")] == ["api/me"]
    held[0].continue_()
    page.wait_for_selector("#player-name:not(:text-is('…'))")
    page.wait_for_selector("#history li:not(:has(.spinner))")
    # The account and the history came in without redrawing what the visitor was typing.
    assert page.input_value("#join-code") == "half-typed"
    assert page.evaluate("document.activeElement.id") == "join-code"
    assert page.is_enabled("#rename")
