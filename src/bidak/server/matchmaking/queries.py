"""The quick match queue's transactions (each inside ``Database.write``) and reads."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from sqlalchemy import Table, bindparam, delete, insert, select, update
from sqlalchemy.engine import Connection

from bidak.pairing import Options, Seeker
from bidak.server.shared.store.models import MuteRow, QueueRow

_QUEUE = cast(Table, QueueRow.__table__)
_MUTES = cast(Table, MuteRow.__table__)
# Built once: an ``in_`` of a list built per call leaves a reference cycle behind
# (docs/architecture.md, "Storage").
_TAKE = delete(_QUEUE).where(_QUEUE.c.player_id.in_(bindparam("pair", expanding=True)))
_QUEUED = (
    select(_QUEUE.c.player_id)
    .where(_QUEUE.c.player_id.in_(bindparam("players", expanding=True)))
    .with_for_update()
)


def enqueue(
    connection: Connection, player_id: str, rating: float, options: Options, since: float
) -> float:
    """Put the player in the queue with ``options`` (replacing another entry of theirs); the
    time they wait from: kept when they were already waiting with the same options."""
    found = connection.execute(select(_QUEUE).where(_QUEUE.c.player_id == player_id)).first()
    if found is not None:
        same = (found.length, found.move_seconds, found.cube) == (
            options.length,
            options.move_seconds,
            options.cube,
        )
        if same:
            return float(found.since)
        connection.execute(delete(_QUEUE).where(_QUEUE.c.player_id == player_id))
    connection.execute(
        insert(_QUEUE).values(
            player_id=player_id,
            rating=rating,
            length=options.length,
            move_seconds=options.move_seconds,
            cube=options.cube,
            since=since,
            offered=False,
        )
    )
    return since


def enqueue_all(
    connection: Connection, entries: Sequence[tuple[str, float, Options, float]]
) -> list[float]:
    """:func:`enqueue` for each ``(player_id, rating, options, since)``, in order; the time each
    waits from."""
    return [enqueue(connection, *entry) for entry in entries]


def leave(connection: Connection, player_id: str) -> bool:
    """Take the player out of the queue; False if they were not in it."""
    return bool(connection.execute(delete(_QUEUE).where(_QUEUE.c.player_id == player_id)).rowcount)


def take_pairs(connection: Connection, pairs: Sequence[tuple[str, str]]) -> list[bool]:
    """Take out of the queue every pair whose two players are both still in it; which pairs
    were taken (the others lost a player to another process meanwhile). The rows are locked
    first (PostgreSQL), so two processes cannot take the same player."""
    everyone = [player for two in pairs for player in two]
    present = set(connection.execute(_QUEUED, {"players": everyone}).scalars())
    taken = [a in present and b in present for a, b in pairs]
    gone = [player for two, took in zip(pairs, taken, strict=True) if took for player in two]
    if gone:
        connection.execute(_TAKE, {"pair": gone})
    return taken


def mark_offered(connection: Connection, player_id: str) -> bool:
    """Note that the player was offered a bot; False if they were already (or are gone)."""
    marked = connection.execute(
        update(_QUEUE)
        .where(_QUEUE.c.player_id == player_id, _QUEUE.c.offered.is_(False))
        .values(offered=True)
    )
    return bool(marked.rowcount)


def seekers(connection: Connection) -> list[tuple[Seeker, bool]]:
    """Everybody waiting (with whom they muted), and whether each was offered a bot."""
    muted: dict[str, set[str]] = {}
    for row in connection.execute(select(_MUTES.c.player_id, _MUTES.c.muted_id)):
        muted.setdefault(row.player_id, set()).add(row.muted_id)
    found = []
    for row in connection.execute(select(_QUEUE).order_by(_QUEUE.c.since)):
        options = Options(row.length, row.move_seconds, row.cube)
        seeker = Seeker(
            row.player_id, row.rating, options, row.since, frozenset(muted.get(row.player_id, ()))
        )
        found.append((seeker, bool(row.offered)))
    return found


def entry(connection: Connection, player_id: str) -> QueueRow | None:
    """The player's entry in the queue, or None."""
    row = connection.execute(select(_QUEUE).where(_QUEUE.c.player_id == player_id)).first()
    return None if row is None else QueueRow(**row._mapping)
