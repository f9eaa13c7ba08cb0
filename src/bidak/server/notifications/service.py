"""Notifications' use cases: tell a player something (once per key), their list, the bell's
unread count, mark read."""

from __future__ import annotations

import logging
from functools import partial

from bidak.server.notifications import queries
from bidak.server.notifications.queries import Note
from bidak.server.shared.clocks import Clock
from bidak.server.shared.store.db import Database, KeyTaken

log = logging.getLogger(__name__)

KINDS = ("turn", "time", "over", "moderator", "tournament", "challenge", "accepted", "declined")
"""What a notification may say: your turn in a correspondence match, its time almost up (80%
of the allowance passed), a match over, a
moderator's decision on you, a tournament of yours starting, a player challenged you (no
room: a tap opens 'Your games', where the challenge is answered), your challenge was accepted
(the new room) or declined (no room: a tap opens the friends page) (the client's catalogs,
keys ``notify.<kind>``)."""


class Notifications:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db, self.clock = db, clock

    async def tell(self, key: str, player_id: str, kind: str, room: str | None = None) -> bool:
        """Store a notification for ``player_id`` under ``key`` unless one is stored under it
        already (a retry or another process: nothing more). True: this call stored it."""
        if kind not in KINDS:
            raise ValueError(f"unknown notification kind {kind!r}")
        work = partial(
            queries.add, key=key, player_id=player_id, kind=kind, room=room, at=self.clock.now()
        )
        try:
            await self.db.write_keyed(work)
        except KeyTaken:
            return False
        return True

    async def tell_quietly(
        self, key: str, player_id: str, kind: str, room: str | None = None
    ) -> None:
        """:meth:`tell` for background work: a failure is logged, never raised."""
        try:
            await self.tell(key, player_id, kind, room)
        except Exception as failed:
            log.warning("notification %s not stored: %r", key, failed)

    async def newest(self, player_id: str) -> list[Note]:
        return await self.db.read(partial(queries.newest, player_id=player_id))

    async def unread(self, player_id: str) -> int:
        return await self.db.read(partial(queries.unread, player_id=player_id))

    async def mark_read(self, player_id: str, ids: list[int] | None) -> None:
        await self.db.write(partial(queries.mark_read, player_id=player_id, ids=ids))
