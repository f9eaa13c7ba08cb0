"""Playing through the page the way a person does: tapping checkers, points and buttons."""

from __future__ import annotations

from typing import Any

BOARD = "#main svg.board"


def start_practice(
    page: Any, level: str = "beginner", length: int | None = 1, cube: bool | None = None
) -> None:
    """In the lobby: pick the bot's level (and the length and cube when given), start, and
    wait for the table."""
    page.click(f'[data-name="level"] [data-value="{level}"]')
    if length is not None:
        page.click(f'[data-name="practice-length"] [data-value="{length}"]')
    if cube is not None:
        page.click(f'[data-name="practice-cube"] [data-value="{str(cube).lower()}"]')
    page.click("#start-practice")
    page.wait_for_selector(BOARD)


def board_data(page: Any, name: str) -> str:
    value: str | None = page.get_attribute(BOARD, f"data-{name}")
    return value or ""


def dests(page: Any) -> dict[int, int]:
    """The highlighted destinations: point -> number of steps it takes."""
    found: dict[int, int] = {}
    for item in filter(None, board_data(page, "dests").split(",")):
        point, steps = item.split(":")
        found[int(point)] = int(steps)
    return found


def movable(page: Any) -> list[int]:
    return [int(p) for p in filter(None, board_data(page, "movable").split(","))]


def tap(page: Any, point: int) -> None:
    page.click(f'{BOARD} .hit[data-point="{point}"]')


def wait_for_my_move_or_end(page: Any, timeout: float = 20000) -> str:
    """Wait until the player has checkers to move, a decision button, or the match is over."""
    page.wait_for_function(
        """() => {
            const b = document.querySelector('#main svg.board');
            return document.getElementById('match-over')
              || (b && b.dataset.movable)
              || document.querySelector('#btn-roll:not([disabled])')
              || document.getElementById('btn-take');
        }""",
        timeout=timeout,
    )
    if page.query_selector("#match-over"):
        return "over"
    if page.query_selector("#btn-take"):
        return "doubled"
    if movable(page):
        return "move"
    return "roll"


def play_turn(page: Any, prefer_combined: bool = False) -> list[str]:
    """Make a whole play by tapping a glowing checker and then a highlighted point, until OK
    can be pressed; then press OK. Returns the steps made (as the board reports them)."""
    for _ in range(8):
        if page.is_enabled("#btn-ok"):
            break
        points = movable(page)
        assert points, "no checker glows although the play is not complete"
        if not board_data(page, "selected"):
            tap(page, points[0])
        targets = dests(page)
        assert targets, f"no destination after tapping {points[0]}"
        choice = (
            max(targets, key=lambda p: (targets[p], -p))
            if prefer_combined
            else min(targets, key=lambda p: (targets[p], p))
        )
        tap(page, choice)
    made = board_data(page, "made").split()
    version = board_data(page, "version")
    page.click("#btn-ok")
    page.wait_for_function(
        "v => document.querySelector('#main svg.board').dataset.version !== v", arg=version
    )
    return made


UNMARKED_TEXT = """() => {
  const lang = document.documentElement.lang;
  const catalog = window.__bidakI18n.catalogs[lang];
  const problems = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (!text || !el || el.closest('noscript, script, style, option')) continue;
    if (!el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') continue;
    if (/^[\\d\\s.,:;+\\-–−\\/%()·…›‹←▲▼|]*$/.test(text)) continue;
    const marked = el.closest('[data-i18n], [data-raw]');
    if (!marked) { problems.push('unmarked: ' + text); continue; }
    if (marked.hasAttribute('data-raw')) continue;
    const key = marked.getAttribute('data-i18n');
    const value = catalog[key];
    if (typeof value !== 'string') { problems.push('missing key: ' + key); continue; }
    if (!value.includes('{') && marked.textContent.trim() !== value.trim()) {
      problems.push(`stale ${key}: "${marked.textContent.trim()}" is not "${value}"`);
    }
  }
  for (const missing of window.__bidakI18n.missing) problems.push('missing: ' + missing);
  return problems;
}"""


def untranslated(page: Any) -> list[str]:
    """Visible text that does not come from the active catalog (names and numbers aside)."""
    problems: list[str] = page.evaluate(UNMARKED_TEXT)
    return problems


def set_language(page: Any, code: str) -> None:
    page.select_option("#lang", code)
    page.wait_for_function("c => document.documentElement.lang === c", arg=code)
