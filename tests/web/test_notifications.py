"""The notification centre in the page (issue 38): on a 360 px phone in Finnish the header's
bell fits beside the mark, the Games badge, the rules and the language picker; it counts the
unread notifications; the list shows them, a tap marks one read and opens its table, and
"mark all read" empties the count."""

from __future__ import annotations

import itertools
from typing import Any

from bidak.server.shared.clocks import ManualClock
from tests.web.conftest import screenshot
from tests.web.helpers import set_language, untranslated

PHONE = {"width": 360, "height": 740}

BOXES = """() => ['.brand', '#header-games', '#header-bell', '#header-rules', '#lang'].map(s => {
  const r = document.querySelector(s).getBoundingClientRect();
  return [s, r.left, r.right, r.top, r.bottom];
})"""


def bell(page: Any) -> str:
    return str(page.eval_on_selector("#bell-badge", "b => b.hidden ? '' : b.textContent"))


def test_the_bell_counts_lists_and_opens_the_table(server: Any, pages: Any) -> None:
    running = server(clock=ManualClock())
    page = pages.new(running.base, PHONE)
    page.goto("/")
    page.wait_for_selector("#header-bell")
    set_language(page, "fi")
    me = page.evaluate("() => fetch('/api/me').then(r => r.json()).then(x => x.id)")
    code = page.evaluate(
        """() => fetch('/api/rooms', {method: 'POST', headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({kind: 'friend', length: 3, move_seconds: 90})})
        .then(r => r.json()).then(x => x.code)"""
    )
    notes = running.services.notifications
    running.call(lambda: notes.tell("over:test", me, "over", code))
    running.call(lambda: notes.tell("moderator:test", me, "moderator"))
    page.reload()
    page.wait_for_function("() => !document.getElementById('bell-badge').hidden")
    assert bell(page) == "2"

    # Everything in the header fits the screen, side by side, with a count on Games too.
    page.evaluate(
        "() => Object.assign(document.getElementById('games-badge'),"
        " {hidden: false, textContent: '12'})"
    )
    boxes = page.evaluate(BOXES)
    for name, left, right, _top, _bottom in boxes:
        assert left >= 0 and right <= PHONE["width"], (name, boxes)
    for (a, _l, right, _t, _b), (b, left, _r, _t2, _b2) in itertools.pairwise(boxes):
        assert right <= left + 1, (a, b)
    screenshot(page, "notifications-header-phone-fi")

    page.click("#header-bell")
    page.wait_for_selector("#notes-list")
    items = page.query_selector_all(".note-item.unread")
    assert len(items) == 2
    assert untranslated(page) == []
    screenshot(page, "notifications-list-phone-fi")
    page.click('.note-item[data-kind="over"]')
    page.wait_for_function("c => location.hash === '#/room/' + c", arg=code)
    page.wait_for_function("() => document.getElementById('bell-badge').textContent === '1'")

    page.click("#header-bell")
    page.wait_for_selector("#notes-read-all")
    assert page.query_selector_all(".note-item.unread")[0].get_attribute("data-kind") == "moderator"
    page.click("#notes-read-all")
    page.wait_for_function("() => document.getElementById('bell-badge').hidden")
    page.wait_for_function("() => !document.querySelector('.note-item.unread')")
