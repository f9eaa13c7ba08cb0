"""Notifications' use cases: tell a player something (once per key), their list, the bell's
unread count, mark read."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial

from bidak.server.notifications import choice_queries, queries
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


CHANNELS: dict[str, tuple[str, ...]] = {
    "push": KINDS,
    "email": ("turn", "time"),
}
"""Where a notification may also go besides the page (which always shows it), and for which
kinds: a Web Push to the player's browsers for every kind; an e-mail for the games waiting on
them (``turn``: the daily digest) and for time almost up (``time``), to a linked address."""

DEFAULTS = {"push": True, "email": False}
"""A channel's setting until the player changes it: a push goes to every browser the player
allowed it in; e-mail only once they opt in."""


@dataclass(frozen=True, slots=True)
class Told:
    """A notification just stored, as the channels beyond the page receive it."""

    key: str
    player_id: str
    kind: str
    room: str | None
    at: float


Channel = Callable[[Told], Awaitable[None]]
"""A way beyond the page (Web Push, e-mail): called once for each notification stored, by
the process that stored it; it decides itself whether the player wants it."""


class Notifications:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db, self.clock = db, clock
        self.channels: list[Channel] = []

    def add_channel(self, channel: Channel) -> None:
        """Hand every notification stored from now on to ``channel`` as well."""
        self.channels.append(channel)

    async def tell(self, key: str, player_id: str, kind: str, room: str | None = None) -> bool:
        """Store a notification for ``player_id`` under ``key`` unless one is stored under it
        already (a retry or another process: nothing more). True: this call stored it."""
        if kind not in KINDS:
            raise ValueError(f"unknown notification kind {kind!r}")
        told = Told(key, player_id, kind, room, self.clock.now())
        work = partial(queries.add, key=key, player_id=player_id, kind=kind, room=room, at=told.at)
        if not await self.db.write(work):
            return False
        for channel in self.channels:
            try:
                await channel(told)
            except Exception as failed:  # a channel's trouble never undoes the notification
                log.warning("notification %s not handed to %r: %r", key, channel, failed)
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

    async def mark_read(
        self, player_id: str, ids: list[int] | None, room: str | None = None
    ) -> None:
        work = partial(queries.mark_read, player_id=player_id, ids=ids, room=room)
        await self.db.write(work)

    async def settings(self, player_id: str) -> dict[str, dict[str, bool]]:
        """The player's settings: for each channel, each kind it offers, on or off."""
        chosen = await self.db.read(partial(choice_queries.chosen, player_id=player_id))
        return {
            channel: {kind: chosen.get((kind, channel), DEFAULTS[channel]) for kind in kinds}
            for channel, kinds in CHANNELS.items()
        }

    async def wants(self, player_id: str, kind: str, channel: str) -> bool:
        """Whether ``kind`` goes to the player by ``channel``."""
        if kind not in CHANNELS.get(channel, ()):
            return False
        return (await self.settings(player_id))[channel][kind]

    async def choose(self, player_id: str, kind: str, channel: str, wanted: bool) -> None:
        """Keep a choice (ValueError: a channel that does not offer ``kind``)."""
        if kind not in CHANNELS.get(channel, ()):
            raise ValueError(f"{channel!r} does not carry {kind!r}")
        work = partial(
            choice_queries.choose, player_id=player_id, kind=kind, channel=channel, wanted=wanted
        )
        try:
            await self.db.write_keyed(work)
        except KeyTaken:  # another request stored the first choice a moment before: overwrite
            await self.db.write(work)
