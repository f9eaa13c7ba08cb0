"""Indonesian speaks to the player in one register, "kamu", everywhere: the page's catalog and
the letters alike (the formal "Anda" reads as another voice of the site)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from bidak.server.mail.letters import Purpose, compose
from bidak.server.notifications import letters, pages
from bidak.server.notifications.letters import Links, Waiting

CATALOG = Path(__file__).resolve().parents[1] / "src" / "bidak" / "web" / "i18n" / "id.json"
FORMAL = re.compile(r"\bAnda\b", re.IGNORECASE)


def test_the_indonesian_catalog_says_kamu_never_anda() -> None:
    catalog: dict[str, str] = json.loads(CATALOG.read_text())
    formal = {key: text for key, text in catalog.items() if FORMAL.search(text)}
    assert formal == {}


def test_indonesian_letters_say_kamu_never_anda() -> None:
    for purpose in Purpose:
        letter = compose(purpose, "id", "Budi", "https://bidak.example/auth/email?token=x", 30)
        assert not FORMAL.search(letter.subject + letter.text), (purpose, letter.text)


def test_indonesian_notification_letters_and_pages_say_kamu_never_anda() -> None:
    links = Links("https://bidak.example", "https://bidak.example/api/notifications/unsubscribe")
    game = Waiting("ROOM", "Budi", (1, 0), 3, 3600.0)
    said = [
        letters.digest("id", "Sari", [game], links),
        letters.time_almost_up("id", "Sari", game, links),
    ]
    for letter in said:
        assert not FORMAL.search(letter.subject + letter.text), letter.text
    for kind in ("turn", "time"):
        page = pages.ask("id", kind, "Sari", "/x") + pages.done("id", kind) + pages.bad("id")
        assert not FORMAL.search(page), page
