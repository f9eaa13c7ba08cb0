"""Quick match: who is paired with whom among the players waiting. Pure: standard library only.

Players wait with options (match length, seconds a move, cube on or off) and are paired only with
someone who chose the same options. Among those, a seeker is paired with the nearest rating
within the allowed gap, which starts at :data:`START_GAP` rating points and widens by
:data:`GAP_PER_SECOND` for every second the longer waiter of the two has waited, so nobody waits
forever for a perfect match, and those who waited longest are served first. Nobody is paired
with themselves, nor with an account either of the two has muted or blocked
(``bidak.challenges``), and a player banned from
rated play never meets one who expects a rated game (``bidak.fairplay.doors``; a player banned
from play is never in the queue). After :data:`OFFER_AFTER`
seconds without an opponent a seeker is offered a practice match against the bot level nearest
their rating (they stay in the queue until they accept).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

START_GAP = 100.0
GAP_PER_SECOND = 10.0
OFFER_AFTER = 45.0
LENGTHS = (1, 3, 5, 7)
MOVE_SECONDS = (30, 45, 90)

BOT_RATINGS: Mapping[str, float] = {"beginner": 1380.0, "normal": 1780.0, "expert": 2075.0}
"""An estimate of each bot level's FIBS-scale rating, from its measured PR (calibration/:
24.0, 10.6 and 0.85) by the rule of thumb rating = 2100 - 30 x PR. Only used to suggest a
practice opponent, never to rate anyone."""


@dataclass(frozen=True)
class Options:
    length: int
    move_seconds: int
    cube: bool

    def __post_init__(self) -> None:
        if self.length not in LENGTHS:
            raise ValueError(f"a quick match is 1, 3, 5 or 7 points (got {self.length})")
        if self.move_seconds not in MOVE_SECONDS:
            raise ValueError(f"a move takes 30, 45 or 90 seconds (got {self.move_seconds})")


@dataclass(frozen=True)
class Seeker:
    player: str
    rating: float
    options: Options
    since: float
    """When they started waiting (epoch seconds); a frequent leaver's lies ahead of the time they
    asked (``bidak.fairplay.LEAVER_WAIT``), and they meet nobody before it."""
    muted: frozenset[str] = field(default_factory=frozenset)
    """Accounts this player has muted."""
    blocked: frozenset[str] = field(default_factory=frozenset)
    """Accounts this player blocked, or that blocked this player: never met either way."""
    expects_rated: bool = False
    """A linked account with no ban: its games against another such account are rated."""
    unrated_only: bool = False
    """Banned from rated play: never paired with a player who expects a rated game."""


def allowed_gap(waited: float) -> float:
    """The rating gap accepted after waiting ``waited`` seconds."""
    return START_GAP + GAP_PER_SECOND * max(0.0, waited)


def may_meet(a: Seeker, b: Seeker, now: float) -> bool:
    """Whether ``a`` and ``b`` may be paired now."""
    if a.player == b.player or a.options != b.options:
        return False
    if a.player in b.muted or b.player in a.muted:
        return False
    if a.player in b.blocked or b.player in a.blocked:
        return False
    if (a.unrated_only and b.expects_rated) or (b.unrated_only and a.expects_rated):
        return False
    if now < a.since or now < b.since:
        return False  # a frequent leaver waits out their extra wait first
    waited = now - min(a.since, b.since)
    return abs(a.rating - b.rating) <= allowed_gap(waited)


def pair(seekers: Iterable[Seeker], now: float) -> list[tuple[Seeker, Seeker]]:
    """Pairs to start now: the longest waiter first takes the nearest rating it may meet (ties:
    who waited longer, then the player id, so every process computes the same pairs)."""
    queue = sorted(seekers, key=lambda s: (s.since, s.player))
    taken: set[str] = set()
    pairs: list[tuple[Seeker, Seeker]] = []
    for seeker in queue:
        if seeker.player in taken:
            continue
        candidates = [
            other for other in queue if other.player not in taken and may_meet(seeker, other, now)
        ]
        if not candidates:
            continue
        best = min(candidates, key=lambda o: (abs(o.rating - seeker.rating), o.since, o.player))
        taken.update((seeker.player, best.player))
        pairs.append((seeker, best))
    return pairs


def practice_offer(seeker: Seeker, now: float) -> str | None:
    """The bot level to offer a seeker who has waited :data:`OFFER_AFTER` seconds, else None."""
    if now - seeker.since < OFFER_AFTER:
        return None
    return min(BOT_RATINGS, key=lambda level: abs(BOT_RATINGS[level] - seeker.rating))
