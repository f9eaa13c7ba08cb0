"""Guest accounts: a friendly generated name and a session cookie (rules.md 11).

What a player may rename themselves to is :func:`bidak.server.accounts.names.clean_name`.
"""

from __future__ import annotations

import secrets

COOKIE = "bidak_session"
_ADJECTIVES = (
    "Brave",
    "Calm",
    "Clever",
    "Swift",
    "Lucky",
    "Bold",
    "Happy",
    "Quiet",
    "Bright",
    "Kind",
    "Sunny",
    "Merry",
    "Nimble",
    "Gentle",
    "Wise",
    "Jolly",
)
_ANIMALS = (
    "Tiger",
    "Eagle",
    "Otter",
    "Falcon",
    "Gecko",
    "Heron",
    "Lynx",
    "Panda",
    "Orca",
    "Rhino",
    "Komodo",
    "Cobra",
    "Badger",
    "Moose",
    "Owl",
    "Fox",
)


GUEST_TRIES = 8
"""Generated names a new guest may be offered before giving up: each try after a taken one
draws again, from longer numbers every second try."""


def guest_name(attempt: int = 0) -> str:
    """A friendly name such as "Swift Otter 42"; players can change it. Names are unique
    (by skeleton), so a name that is taken is drawn again with ``attempt`` one more: from the
    third try on the number has three digits, then four, so the draws never run out."""
    digits = 2 + attempt // 2
    number = 10 ** (digits - 1) + secrets.randbelow(9 * 10 ** (digits - 1))
    return f"{secrets.choice(_ADJECTIVES)} {secrets.choice(_ANIMALS)} {number}"
