"""The pure parts of e-mail notifications (issue 38): the unsubscribe token (signed, never
forged, never more than a 400 for any input), the digest's hour, the letters in three
languages (escaped, with the one-click headers) and the unsubscribe pages."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bidak.server.mail import LANGUAGES
from bidak.server.mail.outbox import build_message
from bidak.server.notifications import letters, pages
from bidak.server.notifications.letters import Links, Waiting, time_left
from bidak.server.notifications.one_click import BadToken, OneClick, Unsubscribe
from bidak.server.notifications.timing import DAY, HOUR, digest_day, last_due, next_digest

SECRET = "s3cret-s3cret-s3cret-s3cret-s3cret"
KINDS = ("turn", "time")
LINKS = Links("https://bidak.example", "https://bidak.example/api/notifications/unsubscribe?t=1.x")
MARKUP = '<img src=x onerror="alert(1)">'
GAMES = [
    Waiting("ROOM1", MARKUP, (2, 1), 5, 30 * HOUR + 59),
    Waiting("ROOM2", "Budi", (0, 0), 3, None),
]
MIDNIGHT = 1_799_971_200.0
"""2027-01-15 00:00 UTC."""


# -- the token ------------------------------------------------------------------------------


def test_a_token_names_its_player_and_kind_and_nothing_else_verifies() -> None:
    links = OneClick(SECRET, KINDS)
    for kind in KINDS:
        token = links.sign("a" * 32, kind)
        assert links.verify(token) == Unsubscribe("a" * 32, kind)
        assert len(token) < 100
    token = links.sign("p1", "turn")
    with pytest.raises(BadToken):
        OneClick(SECRET + "x", KINDS).verify(token)  # another site's secret
    for i in range(len(token)):  # every character changed, to each of two others
        for other in "AB" if token[i] not in "AB" else "CD":
            with pytest.raises(BadToken):
                links.verify(token[:i] + other + token[i + 1 :])
    with pytest.raises(ValueError):
        links.sign("p1", "over")  # no e-mail of that kind


@given(st.text(max_size=250))
def test_any_text_is_a_valid_token_or_bad_token_never_another_error(text: str) -> None:
    links = OneClick(SECRET, KINDS)
    with contextlib.suppress(BadToken):
        links.verify(text)


# -- the digest's hour ------------------------------------------------------------------------


def test_the_digest_is_due_at_the_hour_and_only_within_its_window() -> None:
    seven = MIDNIGHT + 7 * HOUR
    assert last_due(seven, 7) == seven and next_digest(seven, 7) == seven + DAY
    assert digest_day(seven, 7) == ("2027-01-15", seven)
    assert digest_day(seven - 1, 7) is None  # yesterday's is 24 hours late
    assert digest_day(seven + 12 * HOUR, 7) == ("2027-01-15", seven)
    assert digest_day(seven + 12 * HOUR + 1, 7) is None
    assert next_digest(seven - 1, 7) == seven
    assert digest_day(MIDNIGHT, 0) == ("2027-01-15", MIDNIGHT)
    assert digest_day(MIDNIGHT - 1, 23) == ("2027-01-14", MIDNIGHT - HOUR)


@pytest.mark.parametrize(
    ("seconds", "said"),
    [
        (0, "less than a minute"),
        (59, "less than a minute"),
        (60, "1 minute"),
        (3599, "59 minutes"),
        (HOUR, "1 hour"),
        (HOUR + 120, "1 hour 2 minutes"),
        (DAY, "1 day"),
        (2 * DAY + 23 * HOUR + 59 * 60, "2 days 23 hours"),
        (-5, "less than a minute"),
    ],
)
def test_time_left_as_a_person_says_it(seconds: float, said: str) -> None:
    assert time_left(seconds, "en") == said


def test_time_left_in_indonesian_and_finnish() -> None:
    assert time_left(DAY + 2 * HOUR, "id") == "1 hari 2 jam"
    assert time_left(DAY + 2 * HOUR, "fi") == "1 päivä 2 tuntia"


# -- the letters ----------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_letter_links_its_tables_says_why_and_carries_one_click(language: str) -> None:
    assert language in ("id", "en", "fi")
    for letter in (
        letters.digest(language, "Swift Otter", GAMES, LINKS),  # type: ignore[arg-type]
        letters.time_almost_up(language, "Swift Otter", GAMES[0], LINKS),  # type: ignore[arg-type]
    ):
        assert "Swift Otter" in letter.text and MARKUP in letter.text  # the names, as typed
        assert "https://bidak.example/#/r/ROOM1" in letter.text
        assert LINKS.unsubscribe in letter.text and LINKS.settings in letter.text
        assert "<img" not in letter.html and "&lt;img src=x" in letter.html
        assert f'lang="{language}"' in letter.html
        message = build_message(letter, "Bidak <no-reply@bidak.example>", "a@example.test")
        assert message["List-Unsubscribe"] == f"<{LINKS.unsubscribe}>"
        assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert message["Auto-Submitted"] == "auto-generated"


def test_the_digest_lists_every_game_with_its_score_and_time_left() -> None:
    letter = letters.digest("en", "Ana", GAMES, LINKS)
    assert letter.subject == "Bidak: 2 games wait for your move"
    assert f"{MARKUP}: 2\u20131, match to 5, 1 day 6 hours left" in letter.text
    assert "Budi: 0\u20130, match to 3, no time limit" in letter.text
    assert "https://bidak.example/#/r/ROOM2" in letter.text
    one = letters.digest("en", "Ana", GAMES[1:], LINKS)
    assert one.subject == "Bidak: a game waits for your move"
    with pytest.raises(ValueError):
        letters.digest("en", "Ana", [], LINKS)


def test_the_three_languages_really_differ() -> None:
    subjects = {letters.digest(lang, "A", GAMES, LINKS).subject for lang in LANGUAGES}
    texts = {letters.time_almost_up(lang, "A", GAMES[0], LINKS).text for lang in LANGUAGES}
    assert len(subjects) == len(texts) == 3


# -- the unsubscribe pages -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("accept", "language"),
    [
        ("fi-FI,fi;q=0.9,en;q=0.8", "fi"),
        ("de-DE, id;q=0.5", "id"),
        ("en-GB", "en"),
        ("de", "en"),
        (None, "en"),
        ("", "en"),
        (";;,,q=", "en"),
    ],
)
def test_the_page_speaks_the_browsers_language(accept: str | None, language: str) -> None:
    assert pages.page_language(accept) == language


def test_the_page_asks_with_a_button_and_escapes_what_it_shows() -> None:
    page = pages.ask("en", "turn", MARKUP, '/api/notifications/unsubscribe?t=1."><script>')
    assert "<img" not in page and "<script>" not in page
    assert '<form method="post" action="/api/notifications/unsubscribe?t=1.&quot;&gt;' in page
    assert '<input type="hidden" name="List-Unsubscribe" value="One-Click">' in page
    assert "daily e-mail" in page and 'href="/#/account"' in page
    assert "daily" in pages.done("en", "turn") and "almost up" in pages.done("en", "time")
    assert "not valid" in pages.bad("en")
    assert {pages.bad(lang) for lang in LANGUAGES}.__len__() == 3
