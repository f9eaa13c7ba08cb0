"""When a card comes back: the FSRS scheduler of the ``fsrs`` package, on the server's clock.

Fuzzing is off, so the same answers at the same times give the same schedule (tests, and two
processes agreeing). A card's state is stored as ``fsrs.Card.to_dict()`` gives it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

from fsrs import Card, Rating, Scheduler

from bidak.training import Grade

SCHEDULER = Scheduler(enable_fuzzing=False)


def _at(now: float) -> datetime:
    return datetime.fromtimestamp(now, UTC)


def new_schedule(now: float) -> tuple[dict[str, Any], float]:
    """A new card's FSRS state, due at once, and its due time (seconds since the epoch)."""
    # A card_id of our own: fsrs makes one from the wall clock otherwise (and waits a millisecond).
    card = Card(card_id=0, due=_at(now))
    return dict(card.to_dict()), now


def answered(state: dict[str, Any], grade: Grade, now: float) -> tuple[dict[str, Any], float]:
    """The state after an answer graded ``grade`` at ``now``, and when the card is due next."""
    card, _ = SCHEDULER.review_card(Card.from_dict(cast(Any, state)), Rating(int(grade)), _at(now))
    return dict(card.to_dict()), card.due.timestamp()
