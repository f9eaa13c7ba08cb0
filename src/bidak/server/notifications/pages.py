"""The small pages of a letter's unsubscribe link, in Indonesian, English and Finnish; pure.

Opening the link (GET) shows what it would stop and a button that posts the one-click body
(RFC 8058): a mail scanner that follows links unsubscribes nobody. Posting shows that it is
done. Nothing but the fixed texts, the player's escaped name and the escaped link reaches the
page; it runs no script and needs no style (the page policy allows neither inline).
"""

from __future__ import annotations

import html

from bidak.server.mail import LANGUAGES, Language

DEFAULT: Language = "en"
"""The pages' language when the browser asks for none of the site's."""

_WHAT: dict[Language, dict[str, str]] = {
    "en": {
        "turn": "the daily e-mail of games waiting for your move",
        "time": "the e-mails when your time in a match is almost up",
    },
    "id": {
        "turn": "email harian tentang permainan yang menunggu langkahmu",
        "time": "email saat waktumu dalam pertandingan hampir habis",
    },
    "fi": {
        "turn": "päivittäinen sähköposti peleistä, jotka odottavat siirtoasi",
        "time": "sähköpostit, kun aikasi ottelussa on loppumassa",
    },
}

# title, the question (with {what} and {name}), the button, done (with {what}), the settings
# link, a bad link.
_TEXTS: dict[Language, tuple[str, str, str, str, str, str]] = {
    "en": (
        "Unsubscribe",
        "Stop {what} for {name}?",
        "Unsubscribe",
        "Done: {what} will not be sent any more.",
        "Your notification settings",
        "This unsubscribe link is not valid. Open your notification settings to change what"
        " Bidak sends you.",
    ),
    "id": (
        "Berhenti berlangganan",
        "Hentikan {what} untuk {name}?",
        "Berhenti berlangganan",
        "Selesai: {what} tidak akan dikirim lagi.",
        "Pengaturan notifikasimu",
        "Tautan berhenti berlangganan ini tidak valid. Buka pengaturan notifikasimu untuk"
        " mengubah apa yang dikirim Bidak kepadamu.",
    ),
    "fi": (
        "Peru tilaus",
        "Lopetetaanko pelaajan {name} viestit: {what}?",
        "Peru tilaus",
        "Valmis. Tätä ei lähetetä sinulle enää: {what}.",
        "Ilmoitusasetuksesi",
        "Tämä tilauksen peruutuslinkki ei kelpaa. Avaa ilmoitusasetuksesi muuttaaksesi sitä,"
        " mitä Bidak lähettää sinulle.",
    ),
}

SETTINGS = "/#/account"


def page_language(accept: str | None) -> Language:
    """The first of the site's languages the browser's ``Accept-Language`` names (in its
    order, ignoring weights), else English."""
    for part in (accept or "").split(","):
        base = part.split(";")[0].strip().split("-")[0].lower()
        for language in LANGUAGES:
            if base == language:
                return language
    return DEFAULT


def _page(language: Language, title: str, body: str) -> str:
    return (
        f'<!doctype html><html lang="{language}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="robots" content="noindex">'
        f"<title>{html.escape(title)} \u00b7 Bidak</title></head>"
        f"<body><main><h1>{html.escape(title)}</h1>{body}"
        f'<p><a href="{SETTINGS}">{html.escape(_TEXTS[language][4])}</a></p>'
        "</main></body></html>"
    )


def ask(language: Language, kind: str, name: str, action: str) -> str:
    """The page a GET of the link shows: what it stops, and the button that posts it to
    ``action`` (the link itself)."""
    title, question, button, *_ = _TEXTS[language]
    said = question.format(what=_WHAT[language][kind], name=name)
    form = (
        f'<form method="post" action="{html.escape(action, quote=True)}">'
        '<input type="hidden" name="List-Unsubscribe" value="One-Click">'
        f'<button type="submit">{html.escape(button)}</button></form>'
    )
    return _page(language, title, f"<p>{html.escape(said)}</p>{form}")


def done(language: Language, kind: str) -> str:
    """The page after the one-click POST."""
    title, _, _, said, *_ = _TEXTS[language]
    return _page(language, title, f"<p>{html.escape(said.format(what=_WHAT[language][kind]))}</p>")


def bad(language: Language) -> str:
    """The page of a link that is not valid (changed, cut short, or of another site)."""
    title, *_, message = _TEXTS[language]
    return _page(language, title, f"<p>{html.escape(message)}</p>")
