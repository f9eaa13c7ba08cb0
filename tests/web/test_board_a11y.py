"""A board that speaks (issue 40): the board's accessible tree read as a screen reader reads it,
in each language, and a play typed in notation with the errors a player can act on."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import PHONE
from tests.web.helpers import BOARD, set_language, start_practice, wait_for_my_move_or_end

# The first match of a server seeded "a11y25" opens with 3-1 for the player (seat 0).
SEED = "a11y25"


def opening(server: Any, pages: Any, lang: str) -> Any:
    running = server(seed=SEED)
    page = pages.new(running.base, PHONE)
    page.goto("/")
    set_language(page, lang)
    start_practice(page, "beginner", 1)
    assert wait_for_my_move_or_end(page) == "move"
    assert page.evaluate("window.__bidak.view.table.dice") == [3, 1]
    return page


def typed(page: Any, text: str) -> str:
    """Type `text` in the notation field (reached by the T key) and send it; the error said."""
    page.keyboard.press("Escape")  # out of the field, if the last error left the focus there
    page.keyboard.press("t")
    page.keyboard.press("Control+A")
    page.keyboard.type(text)
    page.keyboard.press("Enter")
    return page.inner_text("#typed-error").strip()


THEIR_PLAY = """[...window.__bidak.view.log].map(x => x.event).reverse()
    .find(e => e.type === 'played' && e.player !== window.__bidak.view.seat)"""
PLAYED = {"en": "played", "id": "memainkan", "fi": "pelasi"}
FROM = {"en": "from", "id": "dari", "fi": "pisteestä"}

ERRORS = {
    "en": [
        ("13/7", "13/7 is not a legal play of 3-1. Legal plays include:"),
        ("9/6 6/5", "You have no checker on 9."),
        ("5/8", "“5/8”: checkers move from higher points to lower ones."),
        ("8-5", "“8-5” is not a step: write it like 13/7 or bar/22."),
        ("26/23", "“26/23” is not a point: use 1–24, bar or off."),
    ],
    "id": [
        ("13/7", "13/7 bukan langkah sah untuk 3-1. Langkah sah antara lain:"),
        ("9/6 6/5", "Kamu tidak punya bidak di 9."),
        ("5/8", "“5/8”: bidak bergerak dari poin yang lebih tinggi ke yang lebih rendah."),
    ],
    "fi": [
        ("13/7", "13/7 ei ole sallittu siirto heitolla 3-1. Sallittuja siirtoja ovat muun muassa:"),
        ("9/6 6/5", "Sinulla ei ole nappulaa pisteessä 9."),
        ("5/8", "”5/8”: nappulat liikkuvat suuremmista pisteistä pienempiin."),
    ],
}


@pytest.mark.parametrize("lang", ["id", "en", "fi"])
def test_a_play_typed_in_notation_says_what_is_wrong_then_is_played(
    server: Any, pages: Any, lang: str
) -> None:
    page = opening(server, pages, lang)
    for text, said in ERRORS[lang]:
        assert typed(page, text).startswith(said), (text, page.inner_text("#typed-error"))
    # The same play by keys alone: a point number picks a checker, the next one its target.
    page.keyboard.press("Escape")
    for key in "8565":
        page.keyboard.press(key)
    page.wait_for_function("() => document.querySelector('#main svg.board').dataset.made")
    assert page.get_attribute(BOARD, "data-made") == "8/5 6/5"
    snapshot = page.locator("#board-text").aria_snapshot()
    print(f"\n--- the board after 3-1 played 8/5 6/5 ({lang}) ---\n{snapshot}")
    assert snapshot == BOARD_AFTER_8_5_6_5[lang]
    # "Read the board" (S) says it all at once in the polite live region.
    page.keyboard.press("s")
    said = page.inner_text("#announcer p:last-child")
    assert said.startswith(snapshot.split('listitem: "')[1].split('"')[0])
    # Taken back (U twice), then typed: the typed play is made and sent.
    page.keyboard.press("u")
    page.keyboard.press("u")
    page.wait_for_function("() => !document.querySelector('#main svg.board').dataset.made")
    assert typed(page, "6/5 8/5") == ""
    # The Beginner's reply is said in the live region: in notation, then in words from the
    # player's side (its 24/21 is "from 1 to 4" here).
    page.wait_for_function(
        f"""w => {{
            const e = {THEIR_PLAY};
            const said = document.getElementById('announcer').textContent;
            return e && said.includes(`${{w}} ${{e.notation}}`);
        }}""",
        arg=PLAYED[lang],
    )
    said = page.inner_text("#announcer")
    notation = page.evaluate(f"() => {THEIR_PLAY}.notation")
    print(f"--- the live region ({lang}) ---\n{said}")
    assert f"{PLAYED[lang]} {notation}: {FROM[lang]}" in said, said
    assert " 8/5 6/5: " in said, "the typed 6/5 8/5 was played as 8/5 6/5, and said so"


# What a screen reader finds in the board's accessible tree (Playwright's aria snapshot) for
# the opening position after 3-1 played 8/5 6/5, point numbers from the player's side.
BOARD_AFTER_8_5_6_5 = {
    "id": '''\
- region "Papan dalam kata-kata":
  - list:
    - listitem: "Skor: kamu 0, lawan 0, pertandingan 1 poin"
    - listitem: "Dadumu: 3 dan 1"
    - listitem: "Jumlah pip: kamu 163, lawan 167"
    - listitem: "Poin 24: 2 bidakmu"
    - listitem: "Poin 19: 5 bidak lawan"
    - listitem: "Poin 17: 3 bidak lawan"
    - listitem: "Poin 13: 5 bidakmu"
    - listitem: "Poin 12: 5 bidak lawan"
    - listitem: "Poin 8: 2 bidakmu"
    - listitem: "Poin 6: 4 bidakmu"
    - listitem: "Poin 5: 2 bidakmu"
    - listitem: "Poin 1: 2 bidak lawan"
    - listitem: "Di bar: kamu 0, lawan 0"
    - listitem: "Sudah keluar: kamu 0, lawan 0"''',
    "en": '''\
- region "The board in words":
  - list:
    - listitem: "Score: you 0, the opponent 0, in a 1-point match"
    - listitem: "Your dice: 3 and 1"
    - listitem: "Pip count: you 163, the opponent 167"
    - listitem: "Point 24: 2 of yours"
    - listitem: "Point 19: 5 of the opponent's"
    - listitem: "Point 17: 3 of the opponent's"
    - listitem: "Point 13: 5 of yours"
    - listitem: "Point 12: 5 of the opponent's"
    - listitem: "Point 8: 2 of yours"
    - listitem: "Point 6: 4 of yours"
    - listitem: "Point 5: 2 of yours"
    - listitem: "Point 1: 2 of the opponent's"
    - listitem: "On the bar: yours 0, the opponent's 0"
    - listitem: "Borne off: yours 0, the opponent's 0"''',
    "fi": '''\
- region "Lauta sanoin":
  - list:
    - listitem: "Tilanne: sinä 0, vastustaja 0, 1 pisteen ottelu"
    - listitem: "Sinun noppasi: 3 ja 1"
    - listitem: "Pipit: sinä 163, vastustaja 167"
    - listitem: "Piste 24: omia 2"
    - listitem: "Piste 19: vastustajan 5"
    - listitem: "Piste 17: vastustajan 3"
    - listitem: "Piste 13: omia 5"
    - listitem: "Piste 12: vastustajan 5"
    - listitem: "Piste 8: omia 2"
    - listitem: "Piste 6: omia 4"
    - listitem: "Piste 5: omia 2"
    - listitem: "Piste 1: vastustajan 2"
    - listitem: "Palkilla: omia 0, vastustajan 0"
    - listitem: "Pois pelattu: omia 0, vastustajan 0"''',
}
