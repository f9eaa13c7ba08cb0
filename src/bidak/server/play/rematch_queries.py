"""Rematch offers' persistence: the offer lives in the room's row (``rematch_by``,
``rematch_at``, ``rematch_room``), so it holds across processes; accepting is one conditional
update, so two accepts at once start one rematch (:mod:`bidak.server.play.rematch`)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import cast

from sqlalchemy import Table, select, update
from sqlalchemy.engine import Connection

from bidak.server.play.tables import RoomRow
from bidak.server.shared.store.db import Database

_ROOMS = cast(Table, RoomRow.__table__)


class RematchOffers:
    """The rematch columns of rooms, each read or write in one short transaction."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def rematch_offer(self, code: str) -> RematchOffer:
        """The room's rematch columns as stored now."""
        return await self.db.read(partial(_rematch_offer, code=code))

    async def offer_rematch(self, code: str, player_id: str, now: float) -> RematchOffer:
        """Record ``player_id``'s offer at ``now`` unless a rematch was already accepted; the
        columns afterwards."""
        return await self.db.write(partial(_offer_rematch, code=code, player_id=player_id, now=now))

    async def accept_rematch(self, code: str, offered_by: str, since: float, new: str) -> bool:
        """Take ``offered_by``'s offer (made at ``since`` or later, not yet taken) for the room
        ``new``, in one conditional update: of two accepts at once, one wins."""
        taken: bool = await self.db.write(
            partial(_accept_rematch, code=code, offered_by=offered_by, since=since, new=new)
        )
        return taken


@dataclass(frozen=True)
class RematchOffer:
    """Who offered a rematch and when, and the rematch's room once accepted."""

    by: str | None
    at: float | None
    room: str | None


def _rematch_offer(connection: Connection, code: str) -> RematchOffer:
    row = connection.execute(
        select(_ROOMS.c.rematch_by, _ROOMS.c.rematch_at, _ROOMS.c.rematch_room).where(
            _ROOMS.c.code == code
        )
    ).one()
    return RematchOffer(row.rematch_by, row.rematch_at, row.rematch_room)


def _offer_rematch(connection: Connection, code: str, player_id: str, now: float) -> RematchOffer:
    connection.execute(
        update(_ROOMS)
        .where(_ROOMS.c.code == code, _ROOMS.c.rematch_room.is_(None))
        .values(rematch_by=player_id, rematch_at=now)
    )
    return _rematch_offer(connection, code)


def _accept_rematch(
    connection: Connection, code: str, offered_by: str, since: float, new: str
) -> bool:
    taken = connection.execute(
        update(_ROOMS)
        .where(
            _ROOMS.c.code == code,
            _ROOMS.c.rematch_room.is_(None),
            _ROOMS.c.rematch_by == offered_by,
            _ROOMS.c.rematch_at >= since,
        )
        .values(rematch_room=new)
    )
    return bool(taken.rowcount)
