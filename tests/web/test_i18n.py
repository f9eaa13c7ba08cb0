"""Every visible string comes from the catalogs, which all have the same keys."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.web.conftest import PHONE
from tests.web.helpers import set_language, untranslated, wait_for_my_move_or_end

WEB = Path(__file__).resolve().parents[2] / "src" / "bidak" / "web"
LANGUAGES = ("id", "en", "fi")


def catalog(code: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((WEB / "i18n" / f"{code}.json").read_text("utf-8"))
    return data


def test_the_three_catalogs_have_the_same_keys_and_no_empty_text() -> None:
    keys = {code: set(catalog(code)) for code in LANGUAGES}
    assert keys["id"] == keys["en"] == keys["fi"]
    for code in LANGUAGES:
        assert all(isinstance(v, str) and v.strip() for v in catalog(code).values()), code


def test_placeholders_match_across_languages() -> None:
    english = catalog("en")
    for code in ("id", "fi"):
        for key, text in catalog(code).items():
            names = set(re.findall(r"\{(\w+)\}", text))
            assert names == set(re.findall(r"\{(\w+)\}", english[key])), (code, key)


def test_every_key_the_code_names_is_in_the_catalogs() -> None:
    known = set(catalog("en"))
    pattern = re.compile(
        r"\b(?:tx|t|button)\(\s*\"([a-z][\w.]*)\"|\b(?:key|title|text):\s*\"([a-z][\w.]*)\""
    )
    named = set()
    for source in (WEB / "js").glob("*.js"):
        for match in pattern.finditer(source.read_text("utf-8")):
            named.add(match.group(1) or match.group(2))
    specs = {"ex.run", "ex.hit", "ex.bearoff"}  # example ids (their texts are ex.*.title etc.)
    assert sorted(named - known - specs) == []


def check_all_languages(page: Any) -> None:
    for code in ("fi", "en", "id"):
        set_language(page, code)
        page.wait_for_timeout(50)
        assert untranslated(page) == [], code


def test_switching_the_language_changes_every_visible_string(server: Any, pages: Any) -> None:
    running = server()
    page = pages.new(running.base, PHONE, locale="id-ID")
    page.goto("/")
    page.wait_for_selector("#practice-card")
    assert page.evaluate("document.documentElement.lang") == "id"  # from navigator.language
    assert "Opsi latihan" in page.inner_text("#practice-card")
    check_all_languages(page)
    assert small_targets(page) == []
    set_language(page, "fi")
    page.reload()
    page.wait_for_selector("#practice-card")
    assert page.evaluate("document.documentElement.lang") == "fi"  # remembered
    assert "Harjoittelu" in page.inner_text("#practice-card")

    # The table, a dialog and the rules panel.
    page.click('[data-name="practice-length"] [data-value="3"]')
    page.click("#start-practice")
    page.wait_for_selector("#main svg.board")
    wait_for_my_move_or_end(page)
    check_all_languages(page)
    page.click("#btn-resign")
    page.wait_for_selector("#resign-dialog")
    check_all_languages(page)
    page.keyboard.press("Escape")
    page.click("#header-rules")
    page.wait_for_selector("#rules-sheet")
    check_all_languages(page)
    page.keyboard.press("Escape")

    # Phone first: every control is at least 44 px in both directions.
    assert small_targets(page) == []

    # Forfeiting the match asks first, then ends it.
    page.click("#btn-resign")
    page.click("#btn-forfeit")
    page.wait_for_selector("#forfeit-dialog")
    check_all_languages(page)
    page.click("#confirm-forfeit")
    page.wait_for_selector("#match-over")
    assert page.inner_text("#score") == "0 – 3"

    # A key missing from a catalog is shown as such and reported.
    assert page.evaluate("window.__bidakI18n.t('no.such.key')") == "⟦no.such.key⟧"
    assert "missing: id:no.such.key" in untranslated(page)


SMALL_TARGETS = """() => [...document.querySelectorAll('button, input, select, a.btn, .hint-item')]
  .filter((el) => el.getClientRects().length)
  .map((el) => [el.id || el.textContent.trim(), el.getBoundingClientRect()])
  .filter(([, r]) => r.width < 44 || r.height < 44)
  .map(([name, r]) => `${name}: ${Math.round(r.width)}x${Math.round(r.height)}`)"""


def small_targets(page: Any) -> list[str]:
    found: list[str] = page.evaluate(SMALL_TARGETS)
    return found
