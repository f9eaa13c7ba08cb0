"""Honest names: what a player may be called, over HTTP, and the names stored before the rule."""

from __future__ import annotations

import json
import unicodedata
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from bidak.server.accounts.names import MAX_LENGTH, MIN_LENGTH, NameRefused, clean_name
from bidak.server.shared.store.db import Database
from tests.server import backends
from tests.server.harness import running_server, server_settings

postgres_url = backends.postgres_url
WEB = Path(__file__).parents[2] / "src" / "bidak" / "web"

SPOOFS = "\u202e\u202d\u2066\u2067\u2068\u2069\u200b\u200c\u200d\u2060\ufeff\u00ad\u061c"
"""Direction overrides and isolates, zero-width characters, soft hyphen, Arabic letter mark."""
ODD = "\x00\x07\x1b\x7f\x85\ue000\U000f0001\U0010fffd\ud800\udfff\U000e0001\u0378"
"""Controls, private use, surrogates, a tag character, an unassigned code point."""

any_text = st.text(
    st.one_of(
        st.characters(codec=None, exclude_categories=()),
        st.sampled_from(SPOOFS + ODD + " \t\n\u3000"),
        st.characters(min_codepoint=0x20, max_codepoint=0x7E),
    ),
    max_size=40,
)


@settings(max_examples=3000, deadline=None)
@given(any_text)
def test_no_accepted_name_holds_an_invisible_or_private_character(name: str) -> None:
    try:
        accepted = clean_name(name)
    except NameRefused as refused:
        assert refused.code in ("name_length", "name_characters", "name_reserved")
        return
    assert MIN_LENGTH <= len(accepted) <= MAX_LENGTH
    assert unicodedata.normalize("NFKC", accepted) == accepted
    assert accepted == accepted.strip() and "  " not in accepted
    for char in accepted:
        assert unicodedata.category(char) not in ("Cc", "Cf", "Co", "Cs", "Cn"), hex(ord(char))
    assert clean_name(accepted) == accepted, "a clean name stays as it is"


@given(st.sampled_from([c for c in SPOOFS + ODD if not c.isspace()]), st.integers(0, 5))
def test_one_hidden_character_anywhere_refuses_the_name(hidden: str, at: int) -> None:
    name = "Budi Santoso"
    with pytest.raises(NameRefused) as refused:
        clean_name(name[:at] + hidden + name[at:])
    assert refused.value.code == "name_characters"


@pytest.mark.parametrize(
    "name",
    [
        "Budi Santoso",
        "José Álvarez",
        "Nguyễn Văn An",
        "李小龍",
        "Ölkkäri-Pekka",
        "Ахмед",
        "Αλέξανδρος",
        "محمد",
        "Badminton Ace",
        "Robotnik",
        "Abbot Costello",
        "Mo",
        "Swift Otter 42",
    ],
)
def test_honest_names_are_kept(name: str) -> None:
    assert clean_name(name) == name


@pytest.mark.parametrize(
    "name",
    [
        "Bidak",
        "BIDAK",
        "bidak team",
        "BidakOfficial",
        "Вidаk",  # Cyrillic В and а
        "ΒΙDΑΚ",  # Greek capitals
        "B1dak",
        "B i d a k",
        "b.i.d.a.k",
        "Ｂｉｄａｋ",  # full width
        "𝐁𝐢𝐝𝐚𝐤",  # mathematical bold
        "admin",
        "Admin2",
        "ADM1N",
        "аdmіn",  # Cyrillic а and і
        "The Moderator",
        "M0DERAT0R",
        "Mоdеrаtоr",  # Cyrillic о, е, а
        "Bot (expert)",
        "bot (Expert)",
        "B0t (expert)",
        "Воt (beginner)",  # Cyrillic В and о
        "Bot",
        "Botti (asiantuntija)",
        "Bot(pemula)",
        "Staff",
        "Ądmin",
    ],
)
def test_names_that_pretend_to_be_the_site_staff_or_a_bot_are_refused(name: str) -> None:
    with pytest.raises(NameRefused) as refused:
        clean_name(name)
    assert refused.value.code == "name_reserved", name


def test_every_bot_label_the_client_shows_is_refused() -> None:
    for language in ("id", "en", "fi"):
        catalog = json.loads((WEB / "i18n" / f"{language}.json").read_text())
        for level in ("beginner", "normal", "expert"):
            label = catalog["bot.name"].replace("{level}", catalog[f"level.{level}"])
            for shown in (label, label.upper(), label.lower()):
                with pytest.raises(NameRefused):
                    clean_name(shown)


@pytest.mark.anyio
async def test_a_refused_rename_says_why_with_a_code_and_changes_nothing(tmp_path: Path) -> None:
    async with running_server(server_settings(tmp_path)) as running:
        page = {"Origin": running.base}  # the site's own page
        async with httpx.AsyncClient(base_url=running.base, headers=page) as browser:
            me = (await browser.get("/api/me")).json()
            for name, code in [
                ("x", "name_length"),
                ("x" * 25, "name_length"),
                ("Budi\u202eosotnaS", "name_characters"),
                ("<b>Budi</b>", "name_characters"),
                ("Bot (expert)", "name_reserved"),
                ("Вidаk", "name_reserved"),
            ]:
                refused = await browser.patch("/api/me", json={"name": name})
                assert refused.status_code == 422, (name, refused.text)
                assert refused.json()["detail"]["code"] == code, name
                assert refused.json()["detail"]["message"]
            assert (await browser.get("/api/me")).json() == me
            renamed = await browser.patch("/api/me", json={"name": "Ｂｕｄｉ\u3000 Santoso"})
            assert renamed.json()["name"] == "Budi Santoso"


BAD_NAMES = {
    "p1": ("Budi Santoso", "Budi Santoso"),  # already fine: untouched
    "p2": ("  Budi   Santoso ", "Budi Santoso"),  # trimmed and folded
    "p3": ("Budi\u202eosotnaS", "BudiosotnaS"),  # the override dropped
    "p4": ("Zero\u200bWidth", "ZeroWidth"),
    "p5": ("Bot (expert)", None),  # pretends: a fresh guest name
    "p6": ("\u200b", None),  # nothing left
    "p7": ("Ｂｉｄａｋ", None),
    "p8": ("x" * 30 + "\x07", "x" * 24),
}


async def stored_before_the_rule_then_migrated(url: str) -> dict[str, str]:
    db = Database(url)
    try:
        await db.migrate("0001")
        async with db.engine.begin() as connection:
            for player_id, (name, _) in BAD_NAMES.items():
                await connection.execute(
                    text("INSERT INTO players (id, name, created_at) VALUES (:i, :n, :t)"),
                    {"i": player_id, "n": name, "t": datetime.now(UTC)},
                )
        await db.migrate()
        async with db.engine.connect() as connection:
            rows = await connection.execute(text("SELECT id, name FROM players"))
            return {player_id: name for player_id, name in rows}
    finally:
        await db.close()


def check_migrated(names: dict[str, str]) -> None:
    assert set(names) == set(BAD_NAMES), "no player is lost"
    for player_id, (before, after) in BAD_NAMES.items():
        now = names[player_id]
        assert clean_name(now) == now, (before, now)
        if after is not None:
            assert now == after, (before, now)
        else:
            assert now != before and len(now.split()) == 3, now  # "Swift Otter 42"


@pytest.mark.anyio
async def test_stored_names_that_break_the_rule_are_migrated_on_sqlite(tmp_path: Path) -> None:
    check_migrated(await stored_before_the_rule_then_migrated(f"sqlite:///{tmp_path / 'b.db'}"))


@pytest.mark.anyio
async def test_stored_names_that_break_the_rule_are_migrated_on_postgres(
    postgres_url: str,
) -> None:
    check_migrated(await stored_before_the_rule_then_migrated(postgres_url))
