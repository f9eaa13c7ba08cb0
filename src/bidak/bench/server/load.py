"""What one measured run of ``bidak bench server`` is (:class:`Load`, with its clients' think
time) and what its clients saw (:class:`Tally`); the load generator's processes send these to
each other, so they are plain picklable values."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Literal

Kind = Literal["bidak", "relay"]
Routing = Literal["any", "room", "split"]
"""Which server process a player's WebSocket reaches when there are several: ``any`` (one
port shared by the processes: the kernel hands each connection to one of them), ``room``
(both players of a match on one process, as a load balancer routing by the room would) or
``split`` (the two players of each match on two processes: the worst case)."""


@dataclass(frozen=True)
class Think:
    """A client's think time: uniform between ``low`` and ``high`` seconds."""

    low: float
    high: float

    @classmethod
    def parse(cls, text: str) -> Think:
        """``"2-5"`` (seconds, a range) or ``"0.5"`` (always the same)."""
        low, _, high = text.partition("-")
        think = cls(float(low), float(high or low))
        if not 0 <= think.low <= think.high:
            raise ValueError(f"a think time is LOW-HIGH seconds with 0 <= LOW <= HIGH, not {text}")
        return think

    def draw(self, rng: random.Random) -> float:
        return rng.uniform(self.low, self.high)

    def __str__(self) -> str:
        return f"{self.low:g}-{self.high:g} s"


@dataclass(frozen=True)
class Load:
    """One measured run: ``matches`` pairs of clients for ``duration`` seconds."""

    kind: Kind
    url: str
    matches: int
    duration: float
    think: Think
    seed: int = 2026
    deflate: bool = True
    quick: bool = False
    """Bidak only: the clients first press Quick match all at once, and play whom they get."""
    urls: tuple[str, ...] = ()
    """The server processes' own addresses, for ``routing`` other than ``any``."""
    routing: Routing = "any"

    def socket_url(self, pair: int, seat: int) -> str:
        """Where seat ``seat`` of pair ``pair`` opens its WebSocket (http form)."""
        if self.routing == "any" or not self.urls:
            return self.url
        process = pair if self.routing == "room" else pair + seat
        return self.urls[process % len(self.urls)]


@dataclass
class Tally:
    """What the clients of one load run saw."""

    actions: int = 0
    actor_ms: list[float] = field(default_factory=list)
    opponent_ms: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    """Errors by kind: the server's error code, "no broadcast", or an exception's name."""
    finished: int = 0
    messages: int = 0
    message_bytes: int = 0
    cpu_seconds: float = 0.0
    """CPU the load generator's processes used in the window (they share the server's cores)."""
    pairing_ms: list[float] = field(default_factory=list)
    """Quick match: for each client, from pressing Quick match to hearing it was paired."""

    def error(self, kind: str, count: int = 1) -> None:
        if count:
            self.errors[kind] = self.errors.get(kind, 0) + count

    def merge(self, other: Tally) -> None:
        self.actions += other.actions
        self.actor_ms += other.actor_ms
        self.opponent_ms += other.opponent_ms
        for kind, count in other.errors.items():
            self.error(kind, count)
        self.finished += other.finished
        self.messages += other.messages
        self.message_bytes += other.message_bytes
        self.cpu_seconds += other.cpu_seconds
        self.pairing_ms += other.pairing_ms
