"""Play's part of a guest signing in and of an account's export
(:mod:`bidak.server.shared.store.player_steps`): the guest's seats at finished matches become the
account's, and the export lists the account's rooms and rated matches."""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import Table, or_, select, update
from sqlalchemy.engine import Connection

from bidak.server.play.tables import MatchRow, RatedMatchRow, RoomRow
from bidak.server.shared.store.player_steps import GuestMerge

_ROOMS = cast(Table, RoomRow.__table__)
_MATCHES = cast(Table, MatchRow.__table__)
_RATED = cast(Table, RatedMatchRow.__table__)


def merge_seats(connection: Connection, merge: GuestMerge) -> int:
    """The guest's seats at finished matches become the account's (not those against the
    account itself, which would seat it against itself); how many moved."""
    finished = (
        select(_ROOMS.c.code)
        .join(_MATCHES, _MATCHES.c.id == _ROOMS.c.match_id)
        .where(_MATCHES.c.finished.is_(True))
    )
    moved = 0
    for seat, other in (
        (_ROOMS.c.seat0_id, _ROOMS.c.seat1_id),
        (_ROOMS.c.seat1_id, _ROOMS.c.seat0_id),
    ):
        result = connection.execute(
            update(_ROOMS)
            .where(
                seat == merge.guest_id,
                or_(other.is_(None), other != merge.into_id),
                _ROOMS.c.code.in_(finished),
            )
            .values({seat.key: merge.into_id})
        )
        moved += int(result.rowcount)
    return moved


def export_seats(connection: Connection, player_id: str) -> dict[str, Any]:
    """The account's rated matches and the rooms it sat in."""
    ratings = connection.execute(
        select(_RATED).where(or_(_RATED.c.winner_id == player_id, _RATED.c.loser_id == player_id))
    ).all()
    seats = connection.execute(
        select(
            _ROOMS.c.code, _ROOMS.c.kind, _ROOMS.c.match_id, _ROOMS.c.seat0_id, _ROOMS.c.seat1_id
        ).where(or_(_ROOMS.c.seat0_id == player_id, _ROOMS.c.seat1_id == player_id))
    ).all()
    return {
        "rated_matches": [dict(row._mapping) for row in ratings],
        "rooms": [
            {
                "room": row.code,
                "kind": row.kind,
                "match_id": row.match_id,
                "seat": 0 if row.seat0_id == player_id else 1,
            }
            for row in seats
        ],
    }
