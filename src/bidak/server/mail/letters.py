"""The letters Bidak sends, in Indonesian, English and Finnish: plain text plus simple HTML.

Pure: no I/O. Every letter says what its link does, how long it works, and to ignore it if the
reader did not ask for it. Whatever came from a player (their name) is escaped in the HTML part.
"""

from __future__ import annotations

import enum
import html
from dataclasses import dataclass
from typing import Literal, get_args

Language = Literal["id", "en", "fi"]
LANGUAGES: tuple[Language, ...] = get_args(Language)
DEFAULT_LANGUAGE: Language = "id"


class Purpose(enum.StrEnum):
    """What a one-time link does when it is opened."""

    LINK_EMAIL = "link_email"
    """Confirm this address on the account that asked."""
    SIGN_IN = "sign_in"
    """Sign the browser that opens it into the account owning the address."""
    CHANGE_EMAIL = "change_email"
    """Allow the account's address to be changed or removed."""
    DELETE_ACCOUNT = "delete_account"
    """Delete the account."""


@dataclass(frozen=True)
class Letter:
    subject: str
    text: str
    html: str
    headers: tuple[tuple[str, str], ...] = ()
    """Headers the letter carries besides From, To, Subject and Message-ID (a notification's
    ``List-Unsubscribe``, RFC 8058)."""


def language_of(code: str | None) -> Language:
    """The letter language for a UI language code such as ``fi`` or ``en-GB`` (else Indonesian,
    the first players' language)."""
    base = (code or "").split("-")[0].split("_")[0].lower()
    for language in LANGUAGES:
        if base == language:
            return language
    return DEFAULT_LANGUAGE


# Each purpose: subject, what the link does (with {name}), the button's label.
_TEXTS: dict[Language, dict[Purpose, tuple[str, str, str]]] = {
    "en": {
        Purpose.LINK_EMAIL: (
            "Confirm your e-mail for Bidak",
            "Open this link to link this address to your Bidak account {name}. With it you can"
            " get the account back on any device.",
            "Confirm this address",
        ),
        Purpose.SIGN_IN: (
            "Sign in to Bidak",
            "Open this link to sign in to your Bidak account {name} in the browser where you"
            " open it.",
            "Sign in",
        ),
        Purpose.CHANGE_EMAIL: (
            "Change the e-mail of your Bidak account",
            "Open this link to change or remove the e-mail address of your Bidak account {name}.",
            "Change the e-mail",
        ),
        Purpose.DELETE_ACCOUNT: (
            "Delete your Bidak account",
            "Open this link to delete your Bidak account {name}. Your opponents keep their"
            " match records, with your name replaced by \u201cdeleted player\u201d.",
            "Delete the account",
        ),
    },
    "id": {
        Purpose.LINK_EMAIL: (
            "Konfirmasi emailmu untuk Bidak",
            "Buka tautan ini untuk menautkan alamat ini ke akun Bidak-mu, {name}. Dengan"
            " begitu akun dapat dipulihkan di perangkat mana pun.",
            "Konfirmasi alamat ini",
        ),
        Purpose.SIGN_IN: (
            "Masuk ke Bidak",
            "Buka tautan ini untuk masuk ke akun Bidak-mu, {name}, di browser tempat tautan"
            " dibuka.",
            "Masuk",
        ),
        Purpose.CHANGE_EMAIL: (
            "Ubah email akun Bidak-mu",
            "Buka tautan ini untuk mengubah atau menghapus alamat email akun Bidak-mu, {name}.",
            "Ubah email",
        ),
        Purpose.DELETE_ACCOUNT: (
            "Hapus akun Bidak-mu",
            "Buka tautan ini untuk menghapus akun Bidak-mu, {name}. Lawanmu tetap"
            " menyimpan catatan pertandingan, dengan namamu diganti menjadi"
            " \u201cpemain terhapus\u201d.",
            "Hapus akun",
        ),
    },
    "fi": {
        Purpose.LINK_EMAIL: (
            "Vahvista sähköpostisi Bidakiin",
            "Avaa tämä linkki liittääksesi osoitteen Bidak-tiliisi {name}. Sen avulla saat"
            " tilin takaisin millä tahansa laitteella.",
            "Vahvista osoite",
        ),
        Purpose.SIGN_IN: (
            "Kirjaudu Bidakiin",
            "Avaa tämä linkki kirjautuaksesi Bidak-tiliisi {name} siinä selaimessa, jossa"
            " avaat linkin.",
            "Kirjaudu sisään",
        ),
        Purpose.CHANGE_EMAIL: (
            "Vaihda Bidak-tilisi sähköposti",
            "Avaa tämä linkki vaihtaaksesi tai poistaaksesi Bidak-tilisi {name}"
            " sähköpostiosoitteen.",
            "Vaihda sähköposti",
        ),
        Purpose.DELETE_ACCOUNT: (
            "Poista Bidak-tilisi",
            "Avaa tämä linkki poistaaksesi Bidak-tilisi {name}. Vastustajasi säilyttävät"
            " otteluidensa tiedot, ja nimesi tilalla lukee \u201cpoistettu pelaaja\u201d.",
            "Poista tili",
        ),
    },
}

_COMMON: dict[Language, tuple[str, str, str]] = {
    # Hello, how long the link works, what to do if it was not you.
    "en": (
        "Hello,",
        "The link works once, for {minutes} minutes.",
        "If you did not ask for this, ignore this message: nothing changes.",
    ),
    "id": (
        "Halo,",
        "Tautan ini hanya berlaku sekali, selama {minutes} menit.",
        "Jika kamu tidak memintanya, abaikan pesan ini: tidak ada yang berubah.",
    ),
    "fi": (
        "Hei,",
        "Linkki toimii kerran, {minutes} minuutin ajan.",
        "Jos et pyytänyt tätä, jätä viesti huomiotta: mikään ei muutu.",
    ),
}


def compose(purpose: Purpose, language: Language, name: str, link: str, minutes: int) -> Letter:
    """The letter that carries ``link`` for ``purpose``, to the account called ``name``."""
    subject, does, button = _TEXTS[language][purpose]
    hello, lasts, not_you = _COMMON[language]
    lasts = lasts.format(minutes=minutes)
    text = "\n\n".join([hello, does.format(name=name), link, lasts, not_you, "Bidak"]) + "\n"
    safe_link = html.escape(link, quote=True)
    body = "".join(
        [
            f"<p>{html.escape(hello)}</p>",
            f"<p>{html.escape(does.format(name=name))}</p>",
            f'<p><a href="{safe_link}">{html.escape(button)}</a></p>',
            f"<p>{html.escape(lasts)}</p>",
            f"<p>{html.escape(not_you)}</p>",
            "<p>Bidak</p>",
        ]
    )
    page = (
        f'<!doctype html><html lang="{language}"><head><meta charset="utf-8">'
        f"<title>{html.escape(subject)}</title></head><body>{body}</body></html>"
    )
    return Letter(subject, text, page)
