"""Training's transactions: banking a review's cards (each once), the drill's next card, an
answer and its new schedule, and the figures the lobby shows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from sqlalchemy import Table, and_, func, insert, select, update
from sqlalchemy.engine import Connection, Row

from bidak.server.training import puzzle_queries
from bidak.server.training.tables import CardRow, DrillRow

_CARDS = cast(Table, CardRow.__table__)
_DRILLS = cast(Table, DrillRow.__table__)
PLACE = ("player_id", "match_id", "game", "turn", "kind")
"""What makes a card the same card: a second review of a match finds it here and adds none."""
DEEPER = ("xgid", "played", "best", "loss", "depth", "phase", "theme", "analysis")
"""What a deeper review replaces (the schedule and the answers so far stay)."""


def bank(connection: Connection, cards: Sequence[dict[str, Any]]) -> int:
    """Store each card not yet banked at its place; a card banked from a shallower review takes
    the deeper one's figures. Returns how many cards are new. Two reviews at once may both try
    to insert one: the unique place keeps one; run it with ``Database.write_keyed``, and again
    after ``KeyTaken`` (it then finds the card). A new card with one clear answer becomes a
    puzzle in the same transaction if its player shares their positions
    (:func:`puzzle_queries.offer`); so does a card a deeper review makes clear."""
    added = 0
    for card in cards:
        where = and_(*(_CARDS.c[name] == card[name] for name in PLACE))
        found = connection.execute(select(_CARDS.c.id, _CARDS.c.depth).where(where)).first()
        if found is None:
            inserted = connection.execute(insert(_CARDS).values(**card)).inserted_primary_key
            assert inserted is not None
            puzzle_queries.offer(connection, int(inserted[0]), card, card["created_at"])
            added += 1
        elif found.depth < card["depth"]:
            connection.execute(
                update(_CARDS)
                .where(_CARDS.c.id == found.id)
                .values(**{name: card[name] for name in DEEPER})
            )
            puzzle_queries.offer(connection, found.id, card, card["created_at"])
    return added


def next_due(connection: Connection, player_id: str, now: float) -> Row[Any] | None:
    """The player's card due longest ago (due now or before), or ``None``."""
    return connection.execute(
        select(_CARDS)
        .where(_CARDS.c.player_id == player_id, _CARDS.c.due <= now)
        .order_by(_CARDS.c.due, _CARDS.c.id)
        .limit(1)
    ).first()


def card(connection: Connection, player_id: str, card_id: int) -> Row[Any] | None:
    """One of the player's cards (another's is ``None``, as a missing one)."""
    return connection.execute(
        select(_CARDS).where(_CARDS.c.id == card_id, _CARDS.c.player_id == player_id)
    ).first()


def answer(
    connection: Connection,
    *,
    card_id: int,
    player_id: str,
    schedule: dict[str, Any],
    due: float,
    at: float,
    day: str,
    loss: float,
    grade: int,
) -> None:
    """Record an answer and move the card to its next due time, together."""
    connection.execute(
        update(_CARDS).where(_CARDS.c.id == card_id).values(schedule=schedule, due=due)
    )
    connection.execute(
        insert(_DRILLS).values(
            card_id=card_id, player_id=player_id, at=at, day=day, loss=loss, grade=grade
        )
    )


def counts(connection: Connection, player_id: str, until: float) -> tuple[int, int]:
    """(cards due by ``until``, all the player's cards)."""
    due = connection.execute(
        select(func.count())
        .select_from(_CARDS)
        .where(_CARDS.c.player_id == player_id, _CARDS.c.due <= until)
    ).scalar_one()
    total = connection.execute(
        select(func.count()).select_from(_CARDS).where(_CARDS.c.player_id == player_id)
    ).scalar_one()
    return int(due), int(total)


def drill_days(connection: Connection, player_id: str, since: str) -> list[str]:
    """The days (``YYYY-MM-DD``, UTC) from ``since`` on when the player answered a card."""
    rows = connection.execute(
        select(_DRILLS.c.day)
        .where(_DRILLS.c.player_id == player_id, _DRILLS.c.day >= since)
        .distinct()
    )
    return [row.day for row in rows]
