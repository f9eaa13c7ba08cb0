"""The table in its busiest state, on two phones and a desktop, in the language with the longest
texts: a friend room with a cube and a running clock, a timeout counted for each player, the
opponent on auto-play, the toasts the timeout brings, a phrase said on each side and the resign
dialog open. Nothing a player reads or taps may overlap or be cut, buttons and badges stay on
one line, and no name shows fewer than 8 of its characters."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bidak.server.shared.clocks import ManualClock
from tests.web.conftest import DESKTOP, screenshot
from tests.web.helpers import set_language
from tests.web.layout import layout_problems

CATALOGS = Path(__file__).resolve().parents[2] / "src" / "bidak" / "web" / "i18n"
SIZES = [
    pytest.param({"width": 390, "height": 844}, "phone-390", id="390x844"),
    pytest.param({"width": 360, "height": 740}, "phone-360", id="360x740"),
    pytest.param(DESKTOP, "desktop", id="desktop"),
]
# Names as long as players choose them, spaces where a phone would like to break them.
NAMES = ("Lucky Eagle 42", "Anak Agung Gede Putra")


def longest_language() -> str:
    """The catalog whose texts are longest in total (Indonesian, today)."""
    totals = {
        path.stem: sum(len(v) for v in json.loads(path.read_text()).values() if isinstance(v, str))
        for path in CATALOGS.glob("*.json")
    }
    return max(totals, key=lambda code: totals[code])


def rename(page: Any, name: str) -> None:
    status = page.evaluate(
        """name => fetch('/api/me', {method: 'PATCH', headers: {'Content-Type': 'application/json'},
             body: JSON.stringify({name})}).then(r => r.status)""",
        name,
    )
    assert status == 200


def table(page: Any) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate("() => window.__bidak.view.table")
    return found


def pending(page: Any) -> int | None:
    found: int | None = page.evaluate(
        "() => window.__bidak.view.deadline && window.__bidak.view.deadline.player"
    )
    return found


def version(page: Any) -> int:
    found: int = page.evaluate("() => window.__bidak.view.version")
    return found


def toasts_over_play(page: Any) -> list[str]:
    """Each toast that overlaps the board's SVG or a visible button, by bounding boxes."""
    found: list[str] = page.evaluate(
        """() => {
          const box = (e) => e.getBoundingClientRect();
          const meets = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
            && a.top < b.bottom - 1 && b.top < a.bottom - 1;
          const shown = (e) => { const r = box(e); return r.width > 0 && r.height > 0; };
          const toasts = [...document.querySelectorAll('.toast')].filter(shown);
          if (!toasts.length) return ['no toast shows'];
          const targets = [...document.querySelectorAll('svg.board, button, .btn')].filter(shown);
          const found = [];
          for (const t of toasts) for (const o of targets) if (meets(box(t), box(o)))
            found.push(`${t.textContent} over ${o.tagName} ${o.id || o.getAttribute('class')}`);
          return found;
        }"""
    )
    return found


def expire(running: Any, clock: ManualClock) -> None:
    running.call(lambda: clock.advance(31))
    running.call(running.services.rooms.settle)


@pytest.mark.parametrize(("size", "label"), SIZES)
def test_the_busiest_table_has_no_overlaps_and_no_cut_names(
    server: Any, pages: Any, size: dict[str, int], label: str
) -> None:
    clock = ManualClock()
    running = server(clock=clock)
    alice = pages.new(running.base, size)
    alice.clock.install()  # time flows until the busy table is set up, then waits
    bob = pages.new(running.base, DESKTOP)
    alice.goto("/")
    alice.wait_for_selector("#player-name")
    rename(alice, NAMES[0])
    bob.goto("/")
    bob.wait_for_selector("#player-name")
    rename(bob, NAMES[1])
    language = longest_language()
    set_language(alice, language)

    alice.click('[data-name="friend-length"] [data-value="5"]')
    alice.click('[data-name="friend-cube"] [data-value="true"]')
    alice.click('[data-name="time"] [data-value="30"]')
    alice.click('[data-name="timeout"] [data-value="autoplay"]')
    alice.click("#create-friend")
    bob.goto(alice.input_value("#invite-link"))
    alice.wait_for_selector("#main svg.board")
    bob.wait_for_selector("#main svg.board")

    # Each clock runs out once; both take back control; Bob is to roll.
    me = table(alice)["viewer"]
    for _ in range(12):
        alice.wait_for_function("() => window.__bidak.view.deadline")
        tb = table(alice)
        if tb["autoplay"][me]:
            alice.click("#take-back")
            alice.wait_for_selector("#autoplay-banner", state="hidden")
        elif tb["autoplay"][1 - me]:
            bob.click("#take-back")
            bob.wait_for_selector("#autoplay-banner", state="hidden")
            alice.wait_for_function("s => !window.__bidak.view.table.autoplay[s]", arg=1 - me)
        elif tb["strikes"][me] and pending(alice) == 1 - me and tb["phase"] == "roll":
            break
        else:
            seen = version(alice)
            expire(running, clock)
            alice.wait_for_function("v => window.__bidak.view.version > v", arg=seen)
    else:
        raise AssertionError(f"never reached the busy table: {table(alice)}")

    # From here Alice's page keeps still (its timers wait), so what comes stays in view: a
    # phrase on each side, then Bob's clock runs out and its toasts come; auto-play plays his
    # turn and Alice is to roll, her clock running.
    alice.clock.pause_at(alice.evaluate("Date.now()") + 1)
    bob.click('.talk-phrase[data-phrase="hello"]')
    alice.wait_for_selector(f'.talk-bubble[data-seat="{1 - me}"]')
    alice.click('.talk-phrase[data-phrase="good_luck"]')
    alice.wait_for_selector(f'.talk-bubble[data-seat="{me}"]')
    expire(running, clock)
    for _ in range(100):
        alice.clock.run_for(50)
        tb = table(alice)
        if tb["autoplay"][1 - me] and pending(alice) == me and tb["phase"] == "roll":
            break
    else:
        raise AssertionError(f"Bob's auto-play never came: {table(alice)}")
    alice.wait_for_selector(".toast")
    alice.wait_for_selector("#btn-roll")
    problems, shown = layout_problems(alice, list(NAMES))
    screenshot(alice, f"table-busy-{label}")
    assert toasts_over_play(alice) == [], "a toast lies over the board or a button"
    assert alice.query_selector(".tap-roll-hint:not(.hidden)"), "rolling by a tap is offered"
    assert alice.query_selector("#main svg.board g.cube")
    assert alice.query_selector(".clock.running")
    assert problems == [], "\n".join(problems)
    assert {name for name, _ in shown} == set(NAMES), shown

    alice.click("#btn-resign")
    alice.wait_for_selector("#resign-dialog")
    problems, _ = layout_problems(alice, list(NAMES))
    screenshot(alice, f"table-busy-dialog-{label}")
    assert problems == [], "\n".join(problems)
