"""Coins as a player sees them: the lobby's check-in card, the shop, and what a friend table
looks like once the players wear what they bought (docs/protocol.md, Coins)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bidak.server.shared.clocks import ManualClock
from tests.web.conftest import DESKTOP, SCREENSHOTS
from tests.web.helpers import untranslated
from tests.web.test_page_policy import WATCH_VIOLATIONS

PHONE = {"width": 390, "height": 844}
DAY = 24 * 3600


def shot(target: Any, name: str) -> Path:
    """A screenshot of a page or of one element, under the tests' screenshot folder, without
    the toasts of what was just done (they would hide what the picture is of)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    target.evaluate("() => document.querySelectorAll('.toast').forEach((t) => t.remove())")
    path = SCREENSHOTS / f"{name}.png"
    target.screenshot(path=str(path))
    return path


def rgb(colour: str) -> str:
    """``#rrggbb`` as a computed style writes it."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


def player_id(page: Any) -> str:
    found: str = page.evaluate("fetch('/api/me').then((r) => r.json()).then((me) => me.id)")
    return found


def balance(running: Any, player: str) -> int:
    """The balance as the server keeps it: the cached one, checked against the ledger."""
    wallets = running.services.wallets
    purse = running.call(lambda: wallets.purse(player))
    entries = running.call(lambda: wallets.entries(player))
    assert purse.balance == sum(e.amount for e in entries)
    value: int = purse.balance
    return value


def grant(running: Any, player: str, amount: int) -> None:
    running.call(lambda: running.services.wallets.grant(player, amount, "web test"))


def fill(page: Any, selector: str, prop: str = "fill") -> str:
    value: str = page.eval_on_selector(selector, f"(el) => getComputedStyle(el).{prop}")
    return value


def test_a_check_in_raises_the_balance_once_a_day(server: Any, pages: Any) -> None:
    clock = ManualClock()
    running = server(clock=clock)
    page = pages.new(running.base, PHONE)
    page.add_init_script(WATCH_VIOLATIONS)
    page.goto("/")
    page.wait_for_selector("#check-in:not([disabled])")
    me = player_id(page)
    assert page.inner_text("#coins-balance") == "0"
    assert "+10" in page.inner_text("#check-in")
    assert page.locator("#coins-days .coins-day.next").get_attribute("data-day") == "1"
    # A second tab of the same player, drawn before the check-in.
    late = pages.contexts[0].new_page()
    late.goto("/")
    late.wait_for_selector("#check-in:not([disabled])")

    page.click("#check-in")
    page.wait_for_selector('#check-in[data-done="true"]')
    # The first check-in brings the welcome gift: enough for a first purchase today.
    assert "welcome gift of +40 coins" in page.inner_text(".toast")
    assert page.inner_text("#coins-balance") == "50"  # no reload
    assert page.is_disabled("#check-in")
    assert page.inner_text("#check-in") == "Checked in today"
    assert "day 1" in page.inner_text("#coins-streak")
    assert "10 coins" in page.inner_text("#coins-next")  # tomorrow's reward
    assert page.locator("#coins-days .coins-day.done").count() == 1
    assert balance(running, me) == 50
    assert untranslated(page) == []
    shot(page.locator("#coins-card"), "coins-card-phone")

    # The other tab still offers the check-in: pressing it credits nothing.
    late.click("#check-in")
    late.wait_for_selector('#check-in[data-done="true"]')
    assert late.inner_text("#coins-balance") == "50"
    assert late.inner_text("#check-in") == "Checked in today"
    assert balance(running, me) == 50
    page.reload()
    page.wait_for_selector('#check-in[data-done="true"]')
    assert page.inner_text("#coins-balance") == "50"

    # The next site day: the streak's second day pays the table's second reward.
    running.call(lambda: clock.advance(DAY))
    page.reload()
    page.wait_for_selector("#check-in:not([disabled])")
    page.click("#check-in")
    page.wait_for_selector('#check-in[data-done="true"]')
    assert page.inner_text("#coins-balance") == "60"
    assert "day 2" in page.inner_text("#coins-streak")
    assert page.locator("#coins-days .coins-day.done").count() == 2
    assert balance(running, me) == 60
    assert page.evaluate("window.__violations") == []

    desk = pages.new(running.base, DESKTOP)
    desk.goto("/")
    desk.wait_for_selector("#check-in:not([disabled])")
    shot(desk, "lobby-coins-desktop")
    shot(desk.locator("#coins-card"), "coins-card-desktop")


def test_a_new_player_buys_a_first_look_on_day_one(server: Any, pages: Any) -> None:
    """Day 1: the shop says what each item lacks; the first check-in (with its welcome gift)
    buys the cheapest checker set."""
    running = server(clock=ManualClock())
    page = pages.new(running.base, PHONE)
    page.goto("/#/shop")
    page.wait_for_selector("#shop-balance")
    shop = page.evaluate("fetch('/api/shop').then((r) => r.json())")
    for item in shop["items"]:
        if not item["owned"]:
            label = page.inner_text(f'[data-buy="{item["id"]}"]')
            assert label == f"{item['price']} · {item['price']} coins short", label
    cheapest = min((i for i in shop["items"] if not i["owned"]), key=lambda i: i["price"])

    page.goto("/")
    page.click("#check-in")
    page.wait_for_selector('#check-in[data-done="true"]')
    page.click("#open-shop")
    page.click(f'[data-buy="{cheapest["id"]}"]')
    page.wait_for_selector(f'[data-item="{cheapest["id"]}"] [data-wear]')
    assert page.inner_text("#shop-balance") == str(50 - cheapest["price"])
    dearer = next(i for i in shop["items"] if i["price"] > 50)
    short = dearer["price"] - (50 - cheapest["price"])
    assert page.inner_text(f'[data-buy="{dearer["id"]}"]').endswith(f"{short} coins short")
    assert untranslated(page) == []


def test_bought_looks_show_at_a_friend_table(server: Any, pages: Any) -> None:
    """Alice buys and wears a checker set and a board theme; Bob wears his own. Each sees their
    own board theme; everybody, a spectator too, sees each player's checkers."""
    running = server(clock=ManualClock())
    alice = pages.new(running.base, PHONE)
    bob = pages.new(running.base, DESKTOP)
    textures: list[tuple[str, int]] = []
    for page in (alice, bob):
        page.add_init_script(WATCH_VIOLATIONS)
        page.on(
            "response",
            lambda r: "/api/shop/textures/" in r.url and textures.append((r.url, r.status)),
        )
        page.goto("/")
        page.wait_for_selector("#check-in")
    ids = {"alice": player_id(alice), "bob": player_id(bob)}

    # Without coins nothing can be bought; the free sets can be worn.
    alice.click("#open-shop")
    alice.wait_for_selector("#shop-balance")
    assert alice.inner_text("#shop-balance") == "0"
    assert alice.is_disabled('[data-buy="ruby"]')
    assert alice.inner_text('[data-buy="ruby"]') == "50 · 50 coins short"
    assert alice.query_selector('[data-item="classic"] [data-wear]') is None  # worn already
    assert alice.query_selector('[data-item="ebony"] [data-wear]') is not None  # owned

    grant(running, ids["alice"], 300)
    grant(running, ids["bob"], 300)
    alice.reload()
    alice.wait_for_selector('[data-buy="ruby"]:not([disabled])')
    assert alice.inner_text("#shop-balance") == "300"
    shop = alice.evaluate("fetch('/api/shop').then((r) => r.json())")
    catalogue = {item["id"]: item for item in shop["items"]}

    # The answer to Alice's first purchase is lost on the way: the shop sends it again with
    # the same key, and the server charges once.
    keys: list[str] = []

    def lose_first_answer(route: Any) -> None:
        keys.append(route.request.headers["idempotency-key"])
        if len(keys) == 1:
            route.fetch()  # the server takes the purchase ...
            route.abort("connectionreset")  # ... and the answer never arrives
        else:
            route.continue_()

    alice.route("**/api/shop/ruby/buy", lose_first_answer)
    alice.click('[data-buy="ruby"]')
    alice.wait_for_selector('[data-item="ruby"] [data-wear]')
    assert len(keys) == 2 and keys[0] == keys[1]
    lost = "Failed to load resource: net::ERR_CONNECTION_RESET"
    assert pages.errors == [lost]  # the browser reports the lost answer, and only that
    pages.errors.clear()
    assert alice.inner_text("#shop-balance") == "250"
    assert balance(running, ids["alice"]) == 250
    alice.click('[data-item="ruby"] [data-wear]')
    alice.wait_for_selector('[data-item="ruby"].on')
    alice.click('[data-buy="batik"]')
    alice.click('[data-item="batik"] [data-wear]')
    alice.wait_for_selector('[data-item="batik"].on')
    assert alice.inner_text("#shop-balance") == "100"
    assert balance(running, ids["alice"]) == 100
    assert untranslated(alice) == []
    alice.evaluate("window.scrollTo(0, 0)")
    shot(alice, "shop-phone")
    alice.evaluate("window.scrollTo(0, document.getElementById('shop-checkers').offsetTop - 60)")
    shot(alice, "shop-checkers-phone")

    bob.goto("/#/shop")
    for item in ("gold", "lagoon"):
        bob.click(f'[data-buy="{item}"]')
        bob.click(f'[data-item="{item}"] [data-wear]')
        bob.wait_for_selector(f'[data-item="{item}"].on')
    assert bob.inner_text("#shop-balance") == str(300 - 80 - 80)
    bob.evaluate("window.scrollTo(0, 0)")
    shot(bob, "shop-desktop")

    # A friend room: Alice in seat 0, Bob in seat 1, Carol watching.
    alice.click("#shop-back")
    alice.click("#create-friend")
    link = alice.input_value("#invite-link")
    bob.goto(link)
    for page in (alice, bob):
        page.wait_for_selector("#main svg.board .ck-them")
    carol = pages.new(running.base, PHONE)
    carol.goto(link)
    carol.wait_for_selector("#main svg.board .ck-them")

    ruby, gold = catalogue["ruby"]["colours"], catalogue["gold"]["colours"]
    # Each player's checkers as the others see them: the fill the browser paints.
    seen = {
        "alice": (ruby, gold),  # her own are "me", Bob's "them"
        "bob": (gold, ruby),
        "carol": (ruby, gold),  # a spectator sees seat 0 as "me"
    }
    for name, page in (("alice", alice), ("bob", bob), ("carol", carol)):
        mine, theirs = seen[name]
        assert fill(page, "#main svg.board .ck-me .ck-body") == rgb(mine["body"]), name
        assert fill(page, "#main svg.board .ck-them .ck-body") == rgb(theirs["body"]), name
        assert fill(page, "#main svg.board .ck-them .ck-body", "stroke") == rgb(theirs["edge"])
        assert fill(page, "#seat-top .chip", "backgroundColor") == rgb(theirs["body"]), name
        assert fill(page, "#seat-bottom .chip", "backgroundColor") == rgb(mine["body"]), name

    # The board theme is each viewer's own: Alice batik, Bob lagoon, Carol the classic board.
    for page, theme in ((alice, "batik"), (bob, "lagoon"), (carol, "classic")):
        colours = catalogue[theme]["colours"]
        assert fill(page, "#main svg.board .surface") == rgb(colours["surface"]), theme
        assert fill(page, "#main svg.board .frame") == rgb(colours["frame"]), theme
        assert fill(page, "#main svg.board .pt-a") == rgb(colours["point_a"]), theme
        assert fill(page, "#main svg.board .label") == rgb(colours["label"]), theme
        texture = catalogue[theme]["texture"]
        drawn = page.eval_on_selector_all(
            "#main svg.board rect.texture", "(els) => els.map((e) => e.dataset.texture)"
        )
        assert drawn == ([texture, texture] if texture else []), theme
        if texture:
            href = page.eval_on_selector(
                "#main svg.board defs pattern image", "(el) => el.getAttribute('href')"
            )
            assert href == f"/api/shop/textures/{texture}.svg"
    # Each texture tile came from the site.
    assert {(url.rsplit("/", 1)[1], status) for url, status in textures} >= {
        ("batik.svg", 200),
        ("waves.svg", 200),
    }
    for page in (alice, bob):
        assert page.evaluate("window.__violations") == []
        assert untranslated(page) == []
    shot(alice, "table-looks-phone")
    shot(bob, "table-looks-desktop")
    shot(carol, "table-looks-spectator-phone")
