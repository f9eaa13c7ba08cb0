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


def guest_name() -> str:
    """A friendly name such as "Swift Otter 42"; players can change it."""
    return f"{secrets.choice(_ADJECTIVES)} {secrets.choice(_ANIMALS)} {secrets.randbelow(90) + 10}"
