"""The notification letters, in Indonesian, English and Finnish: the daily digest of games
waiting on a player and "time almost up"; plain text plus simple HTML; pure.

Every letter names the players by their display names (escaped in the HTML part, like
everything else in it), links each game's table, says why it came, and carries a one-click
unsubscribe (RFC 8058): the ``List-Unsubscribe`` and ``List-Unsubscribe-Post`` headers and a
visible link to the same page, with a link to the account's notification settings.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from bidak.server.mail import Language, Letter


@dataclass(frozen=True, slots=True)
class Waiting:
    """A game waiting on the player, as a letter names it."""

    room: str
    opponent: str
    """The opponent's display name (a bot's name in practice)."""
    score: tuple[int, int]
    """The player's score, then the opponent's."""
    length: int
    left: float | None
    """Seconds until the pending decision runs out (None: no clock)."""


@dataclass(frozen=True, slots=True)
class Links:
    """Where a letter's links go: the site's public address and the letter's unsubscribe
    page."""

    site: str
    unsubscribe: str

    def table(self, room: str) -> str:
        return f"{self.site}/#/r/{room}"

    @property
    def settings(self) -> str:
        return f"{self.site}/#/account"


_UNITS: dict[Language, tuple[tuple[str, str], tuple[str, str], tuple[str, str]]] = {
    "en": (("day", "days"), ("hour", "hours"), ("minute", "minutes")),
    "id": (("hari", "hari"), ("jam", "jam"), ("menit", "menit")),
    "fi": (("päivä", "päivää"), ("tunti", "tuntia"), ("minuutti", "minuuttia")),
}
_UNDER_A_MINUTE: dict[Language, str] = {
    "en": "less than a minute",
    "id": "kurang dari satu menit",
    "fi": "alle minuutti",
}


def time_left(seconds: float, language: Language) -> str:
    """``seconds`` as a person says it, the two largest units (``1 day 4 hours``)."""
    minutes = int(max(0.0, seconds) // 60)
    if minutes < 1:
        return _UNDER_A_MINUTE[language]
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    amounts = [(days, 0), (hours, 1)] if days else [(hours, 1), (minutes, 2)]
    words = []
    for amount, unit in amounts:
        if amount:
            one, many = _UNITS[language][unit]
            words.append(f"{amount} {one if amount == 1 else many}")
    return " ".join(words)


# Each language: hello, digest subject (one game, several), the list's title, a game's line,
# time left, no clock, the table's link, "time almost up" subject and text, why a digest came,
# why a time letter came, stop these, all settings.
_TEXTS: dict[Language, dict[str, str]] = {
    "en": {
        "hello": "Hello {name},",
        "digest_one": "Bidak: a game waits for your move",
        "digest_many": "Bidak: {count} games wait for your move",
        "waiting": "Waiting for your move:",
        "game": "{opponent}: {mine}\u2013{theirs}, match to {length}, {left}",
        "left": "{left} left",
        "no_clock": "no time limit",
        "open": "Open the table",
        "time_subject": "Bidak: your time against {opponent} is almost up",
        "time": "Your move against {opponent} ({mine}\u2013{theirs}, match to {length}) has"
        " {left} left. If the time runs out, you lose the match.",
        "why_turn": "You get this daily digest because you switched it on in your notification"
        " settings.",
        "why_time": "You get these e-mails because you switched on an e-mail when your time is"
        " almost up.",
        "stop": "Stop these e-mails",
        "settings": "All your notification settings",
    },
    "id": {
        "hello": "Halo {name},",
        "digest_one": "Bidak: satu permainan menunggu langkahmu",
        "digest_many": "Bidak: {count} permainan menunggu langkahmu",
        "waiting": "Menunggu langkahmu:",
        "game": "{opponent}: {mine}\u2013{theirs}, pertandingan {length} poin, {left}",
        "left": "sisa waktu {left}",
        "no_clock": "tanpa batas waktu",
        "open": "Buka meja",
        "time_subject": "Bidak: waktumu melawan {opponent} hampir habis",
        "time": "Langkahmu melawan {opponent} ({mine}\u2013{theirs}, pertandingan {length} poin)"
        " tinggal {left} lagi. Jika waktunya habis, kamu kalah dalam pertandingan ini.",
        "why_turn": "Kamu menerima ringkasan harian ini karena kamu menyalakannya di pengaturan"
        " notifikasimu.",
        "why_time": "Kamu menerima email ini karena kamu menyalakan email saat waktumu hampir"
        " habis.",
        "stop": "Berhenti menerima email ini",
        "settings": "Semua pengaturan notifikasimu",
    },
    "fi": {
        "hello": "Hei {name},",
        "digest_one": "Bidak: peli odottaa siirtoasi",
        "digest_many": "Bidak: {count} peliä odottaa siirtoasi",
        "waiting": "Odottaa siirtoasi:",
        "game": "{opponent}: {mine}\u2013{theirs}, ottelu {length} pisteeseen, {left}",
        "left": "aikaa jäljellä {left}",
        "no_clock": "ei aikarajaa",
        "open": "Avaa pöytä",
        "time_subject": "Bidak: aikasi pelaajaa {opponent} vastaan on loppumassa",
        "time": "Siirtoosi ottelussa pelaajaa {opponent} vastaan ({mine}\u2013{theirs},"
        " {length} pisteeseen) on aikaa jäljellä {left}. Jos aika loppuu, häviät ottelun.",
        "why_turn": "Saat tämän päivittäisen koosteen, koska otit sen käyttöön"
        " ilmoitusasetuksissasi.",
        "why_time": "Saat nämä viestit, koska otit käyttöön sähköpostin, kun aikasi on loppumassa.",
        "stop": "Lopeta nämä viestit",
        "settings": "Kaikki ilmoitusasetuksesi",
    },
}


def _left(game: Waiting, language: Language) -> str:
    texts = _TEXTS[language]
    if game.left is None:
        return texts["no_clock"]
    return texts["left"].format(left=time_left(game.left, language))


def _game_line(game: Waiting, language: Language) -> str:
    mine, theirs = game.score
    return _TEXTS[language]["game"].format(
        opponent=game.opponent,
        mine=mine,
        theirs=theirs,
        length=game.length,
        left=_left(game, language),
    )


def _link(url: str, label: str) -> str:
    return f'<a href="{html.escape(url, quote=True)}">{html.escape(label)}</a>'


def _letter(
    subject: str,
    language: Language,
    text: list[str],
    body: list[str],
    why: str,
    links: Links,
) -> Letter:
    """The letter from its paragraphs (``text`` plain, ``body`` HTML already escaped), with
    the footer every notification letter has and the one-click unsubscribe headers."""
    texts = _TEXTS[language]
    footer = [
        why,
        f"{texts['stop']}: {links.unsubscribe}",
        f"{texts['settings']}: {links.settings}",
        "Bidak",
    ]
    plain = "\n\n".join([*text, *footer]) + "\n"
    page_body = "".join(
        [
            *body,
            f"<p>{html.escape(why)}</p>",
            f"<p>{_link(links.unsubscribe, texts['stop'])}"
            f" \u00b7 {_link(links.settings, texts['settings'])}</p>",
            "<p>Bidak</p>",
        ]
    )
    page = (
        f'<!doctype html><html lang="{language}"><head><meta charset="utf-8">'
        f"<title>{html.escape(subject)}</title></head><body>{page_body}</body></html>"
    )
    headers = (
        ("List-Unsubscribe", f"<{links.unsubscribe}>"),
        ("List-Unsubscribe-Post", "List-Unsubscribe=One-Click"),
    )
    return Letter(subject, plain, page, headers)


def digest(language: Language, name: str, games: list[Waiting], links: Links) -> Letter:
    """The daily digest to the player called ``name``: ``games`` wait on them (at least one)."""
    if not games:
        raise ValueError("a digest lists at least one game")
    texts = _TEXTS[language]
    count = len(games)
    subject = texts["digest_one"] if count == 1 else texts["digest_many"].format(count=count)
    hello = texts["hello"].format(name=name)
    lines = [f"- {_game_line(g, language)}\n  {links.table(g.room)}" for g in games]
    items = "".join(
        f"<li>{html.escape(_game_line(g, language))}"
        f" \u2014 {_link(links.table(g.room), texts['open'])}</li>"
        for g in games
    )
    return _letter(
        subject,
        language,
        [hello, texts["waiting"] + "\n\n" + "\n\n".join(lines)],
        [
            f"<p>{html.escape(hello)}</p>",
            f"<p>{html.escape(texts['waiting'])}</p>",
            f"<ul>{items}</ul>",
        ],
        texts["why_turn"],
        links,
    )


def time_almost_up(language: Language, name: str, game: Waiting, links: Links) -> Letter:
    """The letter telling the player called ``name`` that their time in ``game`` is almost up."""
    texts = _TEXTS[language]
    subject = texts["time_subject"].format(opponent=game.opponent)
    hello = texts["hello"].format(name=name)
    mine, theirs = game.score
    left = time_left(game.left, language) if game.left is not None else texts["no_clock"]
    said = texts["time"].format(
        opponent=game.opponent, mine=mine, theirs=theirs, length=game.length, left=left
    )
    table = links.table(game.room)
    return _letter(
        subject,
        language,
        [hello, said, f"{texts['open']}: {table}"],
        [
            f"<p>{html.escape(hello)}</p>",
            f"<p>{html.escape(said)}</p>",
            f"<p>{_link(table, texts['open'])}</p>",
        ],
        texts["why_time"],
        links,
    )
