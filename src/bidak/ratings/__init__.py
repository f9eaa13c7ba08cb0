"""Match ratings, as FIBS counts them. Pure: standard library only.

A new player starts at :data:`START_RATING` with no experience; experience is the sum of the
lengths of the rated matches played. After a rated match of length N between ratings that differ
by D, the underdog was expected to win with probability

    P(underdog) = 1 / (10 ** (D * sqrt(N) / 2000) + 1)

and the winner gains ``4 * sqrt(N) * (1 - P(winner))``, the points the loser loses. A player
with less than 400 experience has their own change multiplied by ``max(1, 5 - experience/100)``,
so a newcomer's rating finds its level in their first few hundred points of play (the two
players' changes then differ; between experienced players they are equal and opposite).
"""

from __future__ import annotations

import math

START_RATING = 1500.0
"""The rating of a player who has not played a rated match."""
EXPERIENCED = 400
"""From this experience (sum of rated match lengths) on, changes are no longer boosted."""


def win_probability(rating: float, opponent: float, length: int) -> float:
    """The chance, by the formula, that the player rated ``rating`` wins a ``length``-point
    match against one rated ``opponent``."""
    _check_length(length)
    difference = abs(rating - opponent)
    underdog = 1.0 / (10 ** (difference * math.sqrt(length) / 2000) + 1)
    return underdog if rating <= opponent else 1.0 - underdog


def boost(experience: int) -> float:
    """How much a player's own change is multiplied by, for their experience before the match."""
    if experience < 0:
        raise ValueError(f"experience is never negative (got {experience})")
    return 1.0 + max(0, EXPERIENCED - experience) / 100


def fibs_change(
    winner_rating: float,
    loser_rating: float,
    length: int,
    winner_experience: int,
    loser_experience: int,
) -> tuple[float, float]:
    """(the winner's change, the loser's change) after a rated match; the loser's is negative."""
    points = 4 * math.sqrt(length) * (1 - win_probability(winner_rating, loser_rating, length))
    return points * boost(winner_experience), -points * boost(loser_experience)


def _check_length(length: int) -> None:
    if length < 1:
        raise ValueError(f"a match is at least 1 point long (got {length})")
