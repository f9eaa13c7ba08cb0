"""The rule for display names: what a player may call themselves (pure: no I/O).

A name is NFKC-normalised (so full-width and mathematical letters become plain ones), trimmed,
with each run of inner whitespace folded to one space, and then has 2 to 24 characters. It holds
no control, format (bidi overrides, zero-width joiners), private-use, surrogate or unassigned
character, no markup brackets, no mark without a letter to sit on and no pile of marks.

It may not pretend to be the site or a bot: a name is refused when, read the way a person would
read it, a word of it is "Bidak", "admin", "moderator", "bot" and the like, or the whole name
spells a bot's label ("Bot (expert)", "Botti (asiantuntija)"). Reading a name like a person
does means its *skeleton*: every character that looks like an ASCII letter or digit becomes that
letter (Unicode's confusables data, through ``confusable_homoglyphs``: Cyrillic "а", Greek "Ο"),
then case is folded and the ASCII look-alikes among themselves are folded (0 and o, 1, i and l,
"rn" and "m"), so "B1DАK" (with a Cyrillic А) and "Mоdеrаtоr" read as the words they imitate.
For the reserved words, digits and signs written for letters are read as letters too ("4dm!n").

No two players wear names with the same skeleton (``players.skeleton`` is unique): a rename to
one is refused with ``name_taken``.

Refusals are :class:`NameRefused` with a machine ``code`` that the client shows in the player's
language.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

MIN_LENGTH = 2
MAX_LENGTH = 24

FORBIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn"})
"""Control, format, private use, surrogate, unassigned."""
MARKS = frozenset({"Mn", "Mc", "Me"})
MAX_MARKS = 3
"""Combining marks one letter may carry (Vietnamese needs two; more is a pile that spills
over the lines around it)."""
MARKUP = frozenset("<>")

RESERVED_WORDS = frozenset(
    {
        "bidak",
        "admin",
        "admins",
        "administrator",
        "moderator",
        "moderators",
        "mod",
        "mods",
        "staff",
        "system",
        "official",
        "bot",
        "bots",
        "botti",
    }
)
"""Words no name may contain (compared by skeleton)."""
RESERVED_PREFIXES = ("bidak", "admin", "moderator")
"""Words no word of a name may begin with ("BidakTeam", "admin2")."""
BOT_LABELS = ("bot", "botti")
BOT_LEVELS = (
    "beginner",
    "normal",
    "expert",
    "pemula",
    "ahli",
    "aloittelija",
    "normaali",
    "asiantuntija",
)
"""A bot's label as the client shows it (``bot.name`` and ``level.*`` in the catalogs in id, en
and fi): "Bot (expert)", "Bot (pemula)", "Botti (asiantuntija)"."""

# The ASCII look-alikes folded into one letter each, after case folding: those Unicode's
# confusables data folds itself (0 and O, 1, I and l) for every comparison, and the digits and
# signs written for letters ("B1D4K", "@dm!n") only when a name is read for the reserved words,
# so that "Budi 6" and "Budi 8" stay two names.
_ASCII_FOLD = str.maketrans({"0": "o", "1": "l", "i": "l", "|": "l"})
_LEET_FOLD = str.maketrans(
    {"!": "l", "5": "s", "$": "s", "3": "e", "4": "a", "@": "a", "7": "t", "8": "b", "9": "g"}
    | {"6": "b", "2": "z"}
)
_ASCII_PAIRS = (("rn", "m"), ("vv", "w"), ("cl", "d"))
_WORDS = re.compile(r"[^\W_]+")


class NameRefused(ValueError):
    """A name the rule refuses; ``code`` says why (``name_length``, ``name_characters``,
    ``name_reserved``, ``name_taken``: another player's name reads the same)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


_LATIN_NAME = re.compile(
    r"LATIN (?:CAPITAL |SMALL )?LETTER (?:SMALL CAPITAL )?([A-Z])(?: WITH .+)?"
)


def _latin(char: str) -> str | None:
    """The plain letter a Latin letter is built on, by its Unicode name: the small capitals
    ("ʙ", "ᴀ"), the letters with a stroke or a hook that NFD leaves whole ("ø", "ƀ", "ɗ")."""
    found = _LATIN_NAME.fullmatch(unicodedata.name(char, ""))
    return found.group(1).lower() if found else None


def _bare(text: str) -> str:
    """``text`` without its combining marks (after NFD)."""
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(char for char in decomposed if unicodedata.category(char) not in MARKS)


@cache
def _homoglyphs() -> dict[str, str]:
    """Each character that looks like a printable ASCII character, and that character: Unicode's
    confusables (TR39) through ``confusable_homoglyphs``, marks and overlays dropped ("Ꮎ" is
    "O" with a stroke), and a second step for those whose look-alike is itself one (Cyrillic
    "т" looks like "ᴛ", a small capital T)."""
    from confusable_homoglyphs.confusables import confusables_data

    def plain(glyph: str) -> str | None:
        glyph = _bare(glyph)
        if len(glyph) != 1:
            return None
        if glyph.isascii():
            return glyph if glyph.isprintable() and glyph != " " else None
        return _latin(glyph)

    table: dict[str, str] = {}
    for char, entries in confusables_data.items():
        if len(char) != 1 or char.isascii():
            continue
        ascii_first = sorted(entries, key=lambda entry: not _bare(entry["c"]).isascii())
        for entry in ascii_first:
            if (found := plain(entry["c"])) is not None:
                table[char] = found
                break
    for char, entries in confusables_data.items():
        if len(char) != 1 or char.isascii() or char in table:
            continue
        for entry in entries:
            glyph = _bare(entry["c"])
            if len(glyph) == 1 and (found := table.get(glyph)) is not None:
                table[char] = found
                break
    return table


def _plain(text: str) -> str:
    homoglyphs = _homoglyphs()
    return "".join(
        homoglyphs.get(char) or _latin(char) or char
        for char in _bare(text)
        if unicodedata.category(char) not in MARKS
    )


def skeleton(text: str) -> str:
    """``text`` as a person reads it (after Unicode TR39's skeleton): decomposed, every
    look-alike letter made the ASCII one it imitates, decomposed again, marks and diacritics
    dropped, case folded, and ASCII look-alikes among themselves made one. Names are compared
    by it: for the reserved words and for two players' names.

    >>> skeleton("Ādmіn") == skeleton("ADMIN") == skeleton("adm1n") == skeleton("ᴀdmin")
    True
    >>> skeleton("M0DERAT0R") == skeleton("moderator") == skeleton("ᴍoderator")
    True
    >>> skeleton("Budi 6") == skeleton("Budi 8")
    False
    >>> skeleton("Bøt") == skeleton("ƀot") == skeleton("ʙᴏᴛ") == skeleton("Вот") == "bot"
    True
    """
    folded = _plain(unicodedata.normalize("NFKC", text)).casefold()
    # A look-alike's ASCII form may be a capital (Greek "Ο" is "O"): fold again.
    folded = _plain(folded).casefold()
    folded = folded.translate(_ASCII_FOLD)
    for pair, letter in _ASCII_PAIRS:
        folded = folded.replace(pair, letter)
    return folded


def _reading(text: str) -> str:
    """:func:`skeleton`, with digits and signs written for letters read as those letters."""
    folded = skeleton(text).translate(_LEET_FOLD)
    for pair, letter in _ASCII_PAIRS:
        folded = folded.replace(pair, letter)
    return folded


@cache
def _reserved() -> tuple[frozenset[str], tuple[str, ...], frozenset[str]]:
    words = frozenset(_reading(word) for word in RESERVED_WORDS)
    prefixes = tuple(_reading(word) for word in RESERVED_PREFIXES)
    labels = frozenset(_reading(bot + level) for bot in BOT_LABELS for level in BOT_LEVELS)
    return words, prefixes, labels


def impersonates(name: str) -> bool:
    """Whether ``name`` reads as the site, its staff or a bot.

    >>> impersonates("Bot (expert)"), impersonates("B o t t i  (Asiantuntija)")
    (True, True)
    >>> impersonates("Вidаk"), impersonates("Badminton Ace"), impersonates("Robotnik")
    (True, False, False)
    """
    words, prefixes, labels = _reserved()
    tokens = _WORDS.findall(_reading(name))
    whole = "".join(tokens)
    candidates = [*tokens, whole]
    return (
        any(token in words or token.startswith(prefixes) for token in candidates) or whole in labels
    )


def clean_name(name: str) -> str:
    """The display name ``name`` stands for, or :class:`NameRefused`.

    >>> clean_name("  Budi \\u3000 Santoso ")
    'Budi Santoso'
    >>> clean_name("ＢＵＤＩ")
    'BUDI'
    """
    text = " ".join(unicodedata.normalize("NFKC", name).split())
    if not MIN_LENGTH <= len(text) <= MAX_LENGTH:
        raise NameRefused("name_length", f"A name has {MIN_LENGTH} to {MAX_LENGTH} characters")
    marks = 0
    for index, char in enumerate(text):
        category = unicodedata.category(char)
        if category in MARKS:
            marks += 1
            if marks > MAX_MARKS or index == 0 or text[index - 1] == " ":
                raise _characters()
            continue
        marks = 0
        if category in FORBIDDEN_CATEGORIES or char in MARKUP:
            raise _characters()
    if unicodedata.normalize("NFKC", text) != text:  # a space before a mark may recombine
        raise _characters()
    if impersonates(text):
        raise NameRefused(
            "name_reserved", "A name may not look like the site's, its staff's or a bot's"
        )
    return text


def taken() -> NameRefused:
    """The refusal of a name another player already wears (compared by :func:`skeleton`)."""
    return NameRefused("name_taken", "Another player has that name, or one that looks like it")


def _characters() -> NameRefused:
    return NameRefused(
        "name_characters",
        "A name has letters, digits, spaces and punctuation only (no invisible or"
        " direction-changing characters, no < or >)",
    )


def repaired_name(name: str) -> str | None:
    """What a stored name that breaks the rule can become: the name without its forbidden
    characters, trimmed to the longest length allowed, if that passes; else None (give the
    player a fresh name)."""
    text = unicodedata.normalize("NFKC", name)
    kept = "".join(
        char
        for char in text
        if unicodedata.category(char) not in FORBIDDEN_CATEGORIES and char not in MARKUP
    )
    kept = " ".join(kept.split())[:MAX_LENGTH].strip()
    try:
        return clean_name(kept)
    except NameRefused:
        return None
