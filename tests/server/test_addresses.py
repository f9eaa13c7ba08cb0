"""E-mail addresses are compared without case; device labels stay coarse."""

from __future__ import annotations

import pytest

from bidak.server.accounts.devices import device_label
from bidak.server.mail.addresses import BadAddress, masked, normalise


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        ("  Budi.Santoso@GMAIL.com ", "budi.santoso@gmail.com"),
        ("ilo@Bücher.DE", "ilo@bücher.de"),
        ("a+bidak@example.org", "a+bidak@example.org"),
    ],
)
def test_addresses_are_one_however_they_are_typed(given: str, stored: str) -> None:
    assert normalise(given) == stored


@pytest.mark.parametrize(
    "bad", ["", "   ", "budi", "budi@", "@example.com", "bu di@example.com", "a" * 250 + "@x.io"]
)
def test_what_is_not_an_address_is_refused_with_a_reason(bad: str) -> None:
    with pytest.raises(BadAddress, match="e-mail address"):
        normalise(bad)


def test_a_masked_address_keeps_enough_to_recognise_it() -> None:
    assert masked("budi.santoso@gmail.com") == "b***o@gmail.com"
    assert masked("ab@example.com") == "a***@example.com"


@pytest.mark.parametrize(
    ("agent", "label"),
    [
        (
            "Mozilla/5.0 (Linux; Android 14; SM-A546E) AppleWebKit/537.36 (KHTML, like Gecko)"
            " SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36",
            "Samsung Internet on Android",
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15"
            " (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
            "Safari on iPhone",
        ),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko)"
            " Chrome/124.0.0.0 Safari/537.36 Edg/124.0.0.0",
            "Edge on Windows",
        ),
        (
            "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0",
            "Firefox on Linux",
        ),
        (
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko)"
            " HeadlessChrome/156.0.0.0 Safari/537.36",
            "Chrome on Linux",
        ),
        ("curl/8.5.0", "Unknown browser"),
        (None, "Unknown browser"),
    ],
)
def test_device_labels_name_the_browser_and_the_system_only(agent: str | None, label: str) -> None:
    assert device_label(agent) == label
