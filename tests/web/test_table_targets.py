"""Targets at the table a finger can trust: the opponent's name is a 44 px tall tap target, and
a double arriving leaves the talk bar's buttons in place (a new bar under a finger pressing a
phrase lost the tap)."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import screenshot
from tests.web.helpers import play_turn
from tests.web.helpers import wait_for_my_move_or_end as wait_turn

PHONE = {"width": 390, "height": 844}

# Does a point 21 px above and below the name's middle still land on the name's link?
TARGET = """() => {
  const link = document.querySelector('.seat-top .seat-link');
  const r = link.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
  const on = (dy) => {
    const e = document.elementFromPoint(x, y + dy);
    return !!e && link.contains(e);
  };
  return [on(-21), on(0), on(21)];
}"""


def test_the_name_is_a_tall_target_and_a_double_keeps_the_talk_bar(server: Any, pages: Any) -> None:
    running = server()
    alice = pages.new(running.base, PHONE)
    bob = pages.new(running.base, PHONE)
    alice.goto("/")
    alice.wait_for_selector("#player-name")
    bob.goto("/")
    bob.wait_for_selector("#player-name")
    alice.click('[data-name="friend-length"] [data-value="5"]')
    alice.click('[data-name="friend-cube"] [data-value="true"]')
    alice.click("#create-friend")
    bob.goto(alice.input_value("#invite-link"))
    alice.wait_for_selector("#talk-bar")
    bob.wait_for_selector("#talk-bar")
    assert alice.evaluate(TARGET) == [True, True, True]

    # Whoever moves first plays; the other is to roll or double, and doubles.
    alice.wait_for_function(
        "() => { const t = window.__bidak?.view?.table; return t && t.phase === 'move'; }"
    )
    table = alice.evaluate("() => window.__bidak.view.table")
    first, second = (alice, bob) if table["turn"] == table["viewer"] else (bob, alice)
    assert wait_turn(first) == "move"
    play_turn(first)
    assert wait_turn(second) == "roll"
    first.evaluate(
        "() => document.querySelectorAll('#talk-bar button').forEach(b => { b.kept = true; })"
    )
    second.click("#btn-double")
    first.wait_for_selector("#btn-take")
    kept = first.evaluate(
        "() => [...document.querySelectorAll('#talk-bar button')].every(b => b.kept === true)"
    )
    screenshot(first, "table-doubled-talk-bar-phone")
    assert kept, "the talk bar was drawn anew when the double came"
