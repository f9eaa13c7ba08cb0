"""The arena: play as many short matches as you can in a time window.

A player who joined and is neither playing nor paused is *free*. Free players are paired at once
(:func:`arena_pairs`): the leader first (highest score, then rating), each with the free player
nearest in score, then in rating, never the opponent of their previous match (a player whose only
free opponent is their last one waits for the next pass). A win scores :data:`WIN_POINTS`; after
:data:`STREAK_FROM` wins in a row each further win scores double (:func:`points_for_win`), a loss
scores 0 and ends the streak. Everything is decided from the values passed in, ties broken by
player id, so every process computes the same pairs.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

WIN_POINTS = 2
STREAK_FROM = 2
"""Wins in a row after which a win scores double."""
ABSENCES_TO_PAUSE = 2
"""Matches in a row a player may miss by not coming to the table; then they are paused (as in
lichess's arenas) rather than paired again and again into matches they lose by absence."""
LENGTHS = (1, 3)
WINDOW_MINUTES = (30, 60)


@dataclass(frozen=True)
class ArenaEntrant:
    """A player in an arena, as the pairing and the scores see them."""

    player: str
    rating: float
    score: int = 0
    streak: int = 0
    """Wins in a row, up to now."""
    wins: int = 0
    played: int = 0
    last_opponent: str | None = None
    playing: bool = False
    paused: bool = False
    absences: int = 0
    """Matches in a row forfeited by not coming to the table (:data:`ABSENCES_TO_PAUSE`
    pause the player)."""

    @property
    def free(self) -> bool:
        return not self.playing and not self.paused


def points_for_win(streak_before: int) -> int:
    """What a win scores after ``streak_before`` wins in a row: 2, or 4 on a streak."""
    return WIN_POINTS * 2 if streak_before >= STREAK_FROM else WIN_POINTS


def record_result(winner: ArenaEntrant, loser: ArenaEntrant) -> tuple[ArenaEntrant, ArenaEntrant]:
    """Both entrants after a match between them: scores, streaks, last opponents; both free."""
    if winner.player == loser.player:
        raise ValueError("a player cannot beat themselves")
    won = replace(
        winner,
        score=winner.score + points_for_win(winner.streak),
        streak=winner.streak + 1,
        wins=winner.wins + 1,
        played=winner.played + 1,
        last_opponent=loser.player,
        playing=False,
        absences=0,
    )
    lost = replace(
        loser,
        streak=0,
        played=loser.played + 1,
        last_opponent=winner.player,
        playing=False,
        absences=0,
    )
    return won, lost


def absent(entrant: ArenaEntrant, opponent: str) -> ArenaEntrant:
    """``entrant`` did not come to their match with ``opponent``: no points, the streak ends,
    one more absence in a row, and paused at :data:`ABSENCES_TO_PAUSE`."""
    absences = entrant.absences + 1
    return replace(
        entrant,
        streak=0,
        last_opponent=opponent,
        playing=False,
        absences=absences,
        paused=entrant.paused or absences >= ABSENCES_TO_PAUSE,
    )


def record_absence(
    present: ArenaEntrant | None, missing: ArenaEntrant, other: ArenaEntrant | None = None
) -> list[ArenaEntrant]:
    """A match nobody played because ``missing`` (and ``other``, when neither came) did not
    open the table within the grace: the one who came (``present``) wins it as a played win
    (points, streak); whoever did not come loses it by :func:`absent`. The entrants after it."""
    if present is not None:
        won, _ = record_result(present, missing)
        return [won, absent(missing, present.player)]
    if other is None:
        raise ValueError("an absence is either one player's or both players'")
    return [absent(missing, other.player), absent(other, missing.player)]


def may_meet(a: ArenaEntrant, b: ArenaEntrant) -> bool:
    """Whether ``a`` and ``b`` may be paired now: two free players, not each other's last."""
    if a.player == b.player or not (a.free and b.free):
        return False
    return a.last_opponent != b.player and b.last_opponent != a.player


def _rank(entrant: ArenaEntrant) -> tuple[int, float, str]:
    return (-entrant.score, -entrant.rating, entrant.player)


def arena_pairs(entrants: Iterable[ArenaEntrant]) -> list[tuple[ArenaEntrant, ArenaEntrant]]:
    """Pairs to start now among the free: best placed first, each with the nearest in score,
    then rating, then id; nobody twice, nobody with their last opponent.

    The free are kept sorted by (score, rating); the nearest may-meet partner of a player is
    found by walking outwards from them, so a pass costs O(n log n) unless many players are
    each other's last opponents."""
    free = sorted((e for e in entrants if e.free), key=_rank)
    taken: set[str] = set()
    pairs: list[tuple[ArenaEntrant, ArenaEntrant]] = []
    for index, seeker in enumerate(free):
        if seeker.player in taken:
            continue
        best: ArenaEntrant | None = None
        best_key: tuple[int, float, str] | None = None
        # The list is sorted by score then rating: walk down (worse placed) from here; the
        # better placed were all taken already (the loop serves them first) or may not meet.
        for other in free[index + 1 :]:
            if other.player in taken or not may_meet(seeker, other):
                continue
            key = (
                abs(other.score - seeker.score),
                abs(other.rating - seeker.rating),
                other.player,
            )
            if best_key is not None and key[:2] > best_key[:2]:
                break  # sorted by score, then rating: nobody further down is nearer
            if best_key is None or key < best_key:
                best, best_key = other, key
        for other in free[:index]:
            if other.player in taken or not may_meet(seeker, other):
                continue
            key = (
                abs(other.score - seeker.score),
                abs(other.rating - seeker.rating),
                other.player,
            )
            if best_key is None or key < best_key:
                best, best_key = other, key
        if best is None:
            continue
        taken.update((seeker.player, best.player))
        pairs.append((seeker, best))
    return pairs


@dataclass(frozen=True)
class Standing:
    rank: int
    player: str
    score: int
    wins: int
    played: int
    streak: int


def standings(entrants: Iterable[ArenaEntrant]) -> list[Standing]:
    """The table: by score, then wins, then rating, then id; equal scores and wins share a
    rank."""
    ordered = sorted(entrants, key=lambda e: (-e.score, -e.wins, -e.rating, e.player))
    table: list[Standing] = []
    for position, e in enumerate(ordered, start=1):
        rank = position
        if table and (table[-1].score, table[-1].wins) == (e.score, e.wins):
            rank = table[-1].rank
        table.append(Standing(rank, e.player, e.score, e.wins, e.played, e.streak))
    return table
