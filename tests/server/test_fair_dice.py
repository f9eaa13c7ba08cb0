"""Anyone can recompute every roll once the match ends (docs/fair-dice.md)."""

from __future__ import annotations

import hashlib
import hmac
from pathlib import Path

import pytest

from tests.server.harness import Client, running_server, server_settings
from tests.server.scripted import Script, drive

pytestmark = pytest.mark.anyio


def _die(seed: bytes, n: int) -> int:
    """The documented algorithm, written again from the document rather than imported."""
    attempt = 0
    while True:
        message = str(n) if attempt == 0 else f"{n}/{attempt}"
        for byte in hmac.new(seed, message.encode(), hashlib.sha256).digest():
            if byte < 252:
                return byte % 6 + 1
        attempt += 1


async def test_the_seed_is_committed_first_and_explains_every_roll(tmp_path: Path) -> None:
    async with running_server(server_settings(tmp_path), seed=None) as running:
        async with Client(running) as guest:
            room = (
                await guest.http.post(
                    "/api/rooms", json={"kind": "practice", "length": 1, "level": "beginner"}
                )
            ).json()
            snapshot = await guest.join(room["code"])
            early = (await guest.http.get(f"/api/matches/{room['match_id']}/dice")).json()
            assert early["seed"] is None and early["dice"] is None
            assert early["seed_hash"] == snapshot["seed_hash"]

            await drive(guest, Script(8), 0)
            proof = (await guest.http.get(f"/api/matches/{room['match_id']}/dice")).json()
            seed = bytes.fromhex(proof["seed"])
            assert hashlib.sha256(seed).hexdigest() == snapshot["seed_hash"]
            last = guest.messages[-1]
            assert last["seed"] == proof["seed"], "the final broadcast reveals the seed too"

            log = (await guest.http.get(f"/api/matches/{room['match_id']}/events")).json()
            shown = [
                die
                for item in log["events"]
                if item["event"]["type"] in ("opening_tie", "opening_rolled", "dice_rolled")
                for die in item["event"]["dice"]
            ]
            expected = [_die(seed, n) for n in range(proof["dice_drawn"])]
            assert shown == expected == proof["dice"]
            assert len(shown) >= 4
