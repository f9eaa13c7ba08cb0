"""Web Push's pure rules (issue 38): which endpoints and keys are taken, the payload's text
in each language (the notification centre's own words), its size, the VAPID claims and when a
failed push is tried again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bidak.server.notifications.push_rules import (
    RETRIES,
    TEXTS,
    Refused,
    audience,
    check_endpoint,
    check_keys,
    claims,
    headers,
    next_try,
    payload,
    subject_of,
)
from bidak.server.notifications.service import KINDS

I18N = Path(__file__).parents[2] / "src" / "bidak" / "web" / "i18n"


def test_the_texts_are_the_notification_centres_words_in_every_language() -> None:
    for language, texts in TEXTS.items():
        catalog = json.loads((I18N / f"{language}.json").read_text())
        assert set(texts) == set(KINDS)
        for kind, text in texts.items():
            assert text == catalog[f"notify.{kind}"], (language, kind)


@pytest.mark.parametrize(
    ("url", "code"),
    [
        ("http://fcm.googleapis.com/fcm/send/x", "bad_endpoint"),
        ("https://fcm.googleapis.com:8443/fcm/send/x", "bad_endpoint"),
        ("https://user@fcm.googleapis.com/fcm/send/x", "bad_endpoint"),
        ("https://127.0.0.1/x", "unknown_service"),
        ("https://[::1]/x", "unknown_service"),
        ("https://googleapis.com.evil.example/x", "unknown_service"),
        ("https://evilgoogleapis.com/x", "unknown_service"),
        ("http://127.0.0.1:9/x", "bad_endpoint"),  # loopback HTTP only when allowed
        ("https://[bad/x", "bad_endpoint"),
        ("https://fcm.googleapis.com/" + "x" * 2000, "bad_endpoint"),
    ],
)
def test_endpoints_the_site_does_not_push_to(url: str, code: str) -> None:
    with pytest.raises(Refused) as refused:
        check_endpoint(url)
    assert refused.value.code == code


def test_endpoints_of_the_push_services() -> None:
    for url in (
        "https://fcm.googleapis.com/fcm/send/abc:def",
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAA",
        "https://web.push.apple.com/QGuQyavXu",
        "https://wns2-par02p.notify.windows.com/w/?token=BQYAAAB",
    ):
        assert check_endpoint(url) == url
    assert check_endpoint("http://127.0.0.1:9/x", loopback_http=True)
    assert check_endpoint("http://localhost:9/x", loopback_http=True)
    with pytest.raises(Refused):
        check_endpoint("http://10.0.0.1:9/x", loopback_http=True)
    assert check_endpoint("https://push.example.org/x", services="*")
    with pytest.raises(Refused):
        check_endpoint("https://10.0.0.1/x", services="*")


def test_keys_are_a_browsers() -> None:
    point = (
        "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"
    )
    check_keys(point, "tBHItJI5svbpez7KI4CCXg")
    for p256dh, auth in (
        (point, "tBHItJI5svbpez7KI4CC"),  # 15 bytes
        (point[:-2] + "AA", "tBHItJI5svbpez7KI4CCXg"),  # not on the curve
        ("not base64!", "tBHItJI5svbpez7KI4CCXg"),
        ("", ""),
    ):
        with pytest.raises(Refused):
            check_keys(p256dh, auth)


def test_the_payload_is_small_and_opens_the_table() -> None:
    for kind in KINDS:
        for language in ("id", "en", "fi", "de-DE", None):
            body = payload(kind, "ABCDEFGH", language or "")
            assert len(body) < 3000
            found = json.loads(body)
            assert found["url"] == "/#/room/ABCDEFGH" and found["kind"] == kind
    assert json.loads(payload("moderator", None, "id"))["url"] == "/#/games"
    assert json.loads(payload("challenge", None, "fi"))["url"] == "/#/games"
    assert json.loads(payload("declined", None, "en"))["url"] == "/#/friends"
    assert json.loads(payload("turn", "R", "de"))["body"] == TEXTS["en"]["turn"]


def test_vapid_claims_and_headers() -> None:
    endpoint = "https://fcm.googleapis.com/fcm/send/abc"
    assert audience(endpoint) == "https://fcm.googleapis.com"
    assert audience("http://127.0.0.1:8080/push/x") == "http://127.0.0.1:8080"
    found = claims(endpoint, "mailto:a@b.example", 1000.0)
    assert found == {
        "aud": "https://fcm.googleapis.com",
        "exp": 1000 + 12 * 3600,
        "sub": "mailto:a@b.example",
    }
    assert headers("turn", "vapid t=x,k=y")["Urgency"] == "high"
    assert headers("over", "vapid t=x,k=y")["Urgency"] == "normal"
    assert subject_of("", "Bidak <no-reply@bidak.example>", "") == "mailto:no-reply@bidak.example"
    assert subject_of("", "", "https://bidak.example/") == "https://bidak.example"
    assert subject_of("mailto:ops@x.example", "Bidak <a@b.c>", "") == "mailto:ops@x.example"


def test_a_failed_push_is_tried_again_a_few_times_then_given_up() -> None:
    assert [next_try(n) for n in range(1, len(RETRIES) + 2)] == [*RETRIES, None]
    assert next_try(0) is None
