"""The review's totals at 360 px: no heading breaks a word in two (Finnish "Virheet" and
"Törkeät" were cut as "Virhe|et" and "Törke|ät"), in any language."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import screenshot
from tests.web.helpers import set_language, start_practice
from tests.web.helpers import wait_for_my_move_or_end as wait_turn

# For each heading of the totals, the words whose letters do not all sit on one line.
BROKEN = """() => [...document.querySelectorAll('#totals thead th')].flatMap(th => {
  const node = th.firstChild && th.firstChild.nodeType === 3 ? th.firstChild
    : th.querySelector('*') && th.querySelector('*').firstChild;
  if (!node || node.nodeType !== 3) return [];
  const text = node.textContent, range = document.createRange(), found = [];
  let start = 0;
  for (const word of text.split(' ')) {
    const tops = new Set();
    for (let i = 0; i < word.length; i++) {
      range.setStart(node, start + i); range.setEnd(node, start + i + 1);
      const r = range.getBoundingClientRect();
      if (r.width) tops.add(Math.round(r.top));
    }
    if (tops.size > 1) found.push(word);
    start += word.length + 1;
  }
  return found;
})"""


def test_no_review_heading_breaks_a_word_at_360(server: Any, pages: Any) -> None:
    running = server(review_workers=1, analysis_waiting=0)
    page = pages.new(running.base, {"width": 360, "height": 740})
    page.goto("/")
    page.wait_for_selector("#training-card")
    start_practice(page, "beginner", length=1)
    wait_turn(page)
    page.click("#btn-resign")
    page.click("#btn-forfeit")
    page.click("#confirm-forfeit")
    page.wait_for_selector("#match-over")
    page.click("#btn-lobby")
    page.click("#history .history-item [data-review]")
    page.wait_for_selector("#totals thead th", timeout=60000)
    for language in ("fi", "id", "en"):
        set_language(page, language)
        page.wait_for_selector("#totals thead th")
        page.locator("#totals").scroll_into_view_if_needed()
        screenshot(page, f"review-totals-360-{language}")
        assert page.evaluate(BROKEN) == [], language
        # and the table keeps inside its card (no word is kept whole by clipping it)
        assert page.evaluate(
            "() => { const t = document.querySelector('#totals'); "
            "const r = (e) => e.getBoundingClientRect(); "
            "return r(t).right <= r(t.parentElement).right; }"
        ), language
