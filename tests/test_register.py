"""Indonesian speaks to the player in one register, "kamu", everywhere: the page's catalog and
the letters alike (the formal "Anda" reads as another voice of the site)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from bidak.server.mail.letters import Purpose, compose

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
