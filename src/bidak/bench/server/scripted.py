"""What a scripted client does, from the table the server sent it alone: whether the table waits
for it, and its answer (take, roll, a random legal play, a double now and then)."""

from __future__ import annotations

import random
from typing import Any


def choose(table: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A scripted player's answer from the table alone: take, roll, or a random legal play;
    a double now and then, so the cube is used."""
    allowed = set(table["allowed"])
    if "take" in allowed:
        return {"type": "drop" if rng.random() < 0.2 else "take"}
    if "accept_resign" in allowed:
        return {"type": "accept_resign"}
    if "double" in allowed and rng.random() < 0.05:
        return {"type": "double"}
    if "roll" in allowed:
        return {"type": "roll"}
    if "play" in allowed and table["legal_plays"]:
        play = rng.choice(table["legal_plays"])
        return {"type": "play", "steps": [step[:2] for step in play["steps"]]}
    return None


def my_decision(table: dict[str, Any] | None, seat: int) -> bool:
    """Whether the table waits for ``seat`` (answers to a double or resignation included)."""
    if table is None or not table["allowed"]:
        return False
    allowed = set(table["allowed"])
    if allowed & {"take", "drop", "accept_resign", "reject_resign"}:
        return True
    return table["turn"] == seat and bool(allowed & {"roll", "play", "double"})
