"""Fair dice with a commit-reveal proof (docs/fair-dice.md).

Each match gets a 32-byte seed from the operating system's secure random source. Before the first
roll the server shows ``sha256(seed)``; when the match ends it reveals the seed. Die number ``n``
(0, 1, 2, ... over the whole match, opening rolls and their ties included) is drawn from
``HMAC-SHA256(key=seed, msg=str(n))``: the first byte below 252 of the digest, modulo 6, plus 1
(252 = 6 x 42, so every face is equally likely; a digest with no such byte, which has odds of
about 10^-77, moves on to message ``f"{n}/1"``, and so on).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_seed() -> str:
    """A fresh secret seed, as 64 hex digits."""
    return secrets.token_hex(32)


def seed_hash(seed: str) -> str:
    """The commitment shown before the first roll: SHA-256 of the seed's bytes, in hex."""
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def die_number(seed: str, n: int) -> int:
    """The ``n``-th die (0-based) of the match whose seed is ``seed``."""
    key = bytes.fromhex(seed)
    attempt = 0
    while True:
        message = str(n) if attempt == 0 else f"{n}/{attempt}"
        digest = hmac.new(key, message.encode("ascii"), hashlib.sha256).digest()
        for byte in digest:
            if byte < 252:
                return byte % 6 + 1
        attempt += 1


class FairDice:
    """A :class:`bidak.match.DiceSource` that draws the match's dice in order from its seed."""

    def __init__(self, seed: str, drawn: int = 0) -> None:
        self.seed = seed
        self.drawn = drawn

    def die(self) -> int:
        value = die_number(self.seed, self.drawn)
        self.drawn += 1
        return value


def all_dice(seed: str, count: int) -> list[int]:
    """The first ``count`` dice of a match: what anyone can recompute once the seed is revealed."""
    return [die_number(seed, n) for n in range(count)]
