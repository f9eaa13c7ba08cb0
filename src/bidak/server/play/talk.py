"""Table talk without moderation work: a short fixed set of messages, sent by id and shown in
each viewer's own language (the client's catalogs, keys ``talk.<id>``), at most one every
:data:`EVERY_SECONDS` per player. Nothing a player types is ever shown to anyone.
"""

from __future__ import annotations

from typing import Final

PHRASES: Final = (
    "hello",
    "good_luck",
    "nice_roll",
    "well_played",
    "thanks",
    "oops",
    "sorry",
    "good_game",
)
"""Every message a player may send; the wire carries the id, never text."""
EVERY_SECONDS: Final = 3.0


def is_phrase(phrase: str) -> bool:
    return phrase in PHRASES
