"""Scripted players: they read the table the server sends and answer like a person would."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from tests.server.harness import Client


class Script:
    """Decides from the table alone (no rules of its own): picks among the legal plays sent."""

    def __init__(self, seed: int, *, double: float = 0.0, drop: float = 0.0) -> None:
        self.rng = random.Random(seed)
        self.double, self.drop = double, drop

    def choose(self, table: dict[str, Any]) -> dict[str, Any] | None:
        allowed = set(table["allowed"])
        if "take" in allowed:
            return {"type": "drop" if self.rng.random() < self.drop else "take"}
        if "accept_resign" in allowed:
            return {"type": "accept_resign"}
        if "double" in allowed and self.rng.random() < self.double:
            return {"type": "double"}
        if "roll" in allowed:
            return {"type": "roll"}
        if "play" in allowed and table["legal_plays"]:
            play = self.rng.choice(table["legal_plays"])
            return {"type": "play", "steps": [step[:2] for step in play["steps"]]}
        return None


async def drive(client: Client, script: Script | None, seat: int | None) -> dict[str, Any]:
    """Read messages and act whenever the table lets this seat act, until the match is over.

    ``script=None`` only watches (a spectator). Acts at most once per table version.
    """
    acted_on = -1
    while True:
        table = client.table
        if table is not None and table["phase"] == "match_over":
            return table
        if (
            script is not None
            and table is not None
            and table["allowed"]
            and acted_on != client.version
            and _my_decision(table, seat)
        ):
            action = script.choose(table)
            if action is not None:
                acted_on = client.version
                await client.act(action)
        message = await client.receive()
        assert message["type"] != "error", message


def _my_decision(table: dict[str, Any], seat: int | None) -> bool:
    allowed = set(table["allowed"])
    if allowed & {"take", "drop", "accept_resign", "reject_resign"}:
        return True
    return table["turn"] == seat and bool(allowed & {"roll", "play", "double"})


async def play_all(*drivers: Any) -> list[dict[str, Any]]:
    return list(await asyncio.gather(*drivers))
