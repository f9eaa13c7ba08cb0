"""E-mail notifications: the daily digest of the games waiting on a player, and a letter when
their time in a correspondence match is almost up, each sent once, to a linked address.

Each letter is decided in one transaction (:func:`.letter_queries.claim`): the player's address
is read, their choice checked, and the letter's unique key stored (``digest:<player>:<day>``,
``letter:<notification key>``); only after the commit is the letter handed to the outbox. So
two processes sweeping at the same hour, a retry or a restart send it once; a process that
dies between the commit and the outbox loses it (at most once, never twice). The digest runs
at ``BIDAK_DIGEST_HOUR`` (UTC) on the injected clock, and once when the process starts (a
process that was down at the hour catches up, within :data:`.timing.LATE_SECONDS`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from functools import partial

from bidak.server.accounts import Players
from bidak.server.mail import Language, Letter, Outbox
from bidak.server.notifications import letter_queries, letters
from bidak.server.notifications.letters import Links, Waiting
from bidak.server.notifications.one_click import OneClick
from bidak.server.notifications.service import CHANNELS, DEFAULTS, Notifications, Told
from bidak.server.notifications.timing import digest_day, next_digest
from bidak.server.play import RoomService
from bidak.server.shared.clocks import Clock
from bidak.server.shared.settings import Settings
from bidak.server.shared.store.db import Database, KeyTaken, StorageError

log = logging.getLogger(__name__)

UNSUBSCRIBE_PATH = "/api/notifications/unsubscribe"
RETRY_SECONDS = 300.0
"""A digest run the database failed is tried again this much later (within the day's window)."""
LANGUAGE: Language = "en"
"""The letters' language: the server does not keep a player's language (the page's is the
browser's), so letters are in English."""


def site_address(settings: Settings) -> str:
    """The address letters link to: ``BIDAK_PUBLIC_URL``, or in development (where it may be
    empty) the address the server listens on."""
    if settings.public_url:
        return settings.public_url.rstrip("/")
    host = settings.host if settings.host not in ("", "0.0.0.0", "::") else "localhost"
    return f"http://{host}:{settings.port}"


def one_click(settings: Settings) -> OneClick:
    """The unsubscribe links' signer, for the kinds e-mail carries."""
    return OneClick(settings.secret_key, CHANNELS["email"])


class Mailer:
    """The e-mail channel of the notifications: ``tell`` is handed every notification stored
    (:meth:`Notifications.add_channel`), and :meth:`start` runs the daily digest."""

    def __init__(
        self,
        db: Database,
        clock: Clock,
        notifications: Notifications,
        outbox: Outbox,
        rooms: RoomService,
        settings: Settings,
    ) -> None:
        self.db, self.clock, self.notifications = db, clock, notifications
        self.outbox, self.rooms = outbox, rooms
        self.players = Players(db)
        self.hour = settings.digest_hour
        self.site = site_address(settings)
        self.one_click = one_click(settings)
        self.sent = 0
        """Letters this process decided to send (handed to the outbox)."""
        self._sweeping = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None

    def links(self, player_id: str, kind: str) -> Links:
        token = self.one_click.sign(player_id, kind)
        return Links(self.site, f"{self.site}{UNSUBSCRIBE_PATH}?t={token}")

    async def waiting(self, player_id: str) -> list[Waiting]:
        """The player's games waiting on them, least time left first, as letters name them."""
        found = [g for g in await self.rooms.your_games(player_id) if g.yours]
        names = await self.players.players([g.opponent_id for g in found if g.opponent_id])
        now = self.clock.now()
        return [
            Waiting(
                room=g.room,
                opponent=g.bot
                or (names[g.opponent_id].name if g.opponent_id in names else "\u2014"),
                score=g.score,
                length=g.length,
                left=None if g.deadline is None else max(0.0, g.deadline - now),
            )
            for g in found
        ]

    async def _send(
        self, key: str, player_id: str, kind: str, write: Callable[[str], Letter]
    ) -> bool:
        """Decide the letter ``key`` and hand it to the outbox (False: not to be sent, or sent
        already). ``write`` composes it for the player's name, read with their address."""
        claim = partial(
            letter_queries.claim,
            key=key,
            player_id=player_id,
            kind=kind,
            at=self.clock.now(),
            default=DEFAULTS["email"],
        )
        try:
            recipient = await self.db.write_keyed(claim)
        except KeyTaken:
            return False
        if recipient is None:
            return False
        self.outbox.send(write(recipient.name), recipient.email)
        self.sent += 1
        return True

    # -- time almost up ---------------------------------------------------------------------

    async def tell(self, told: Told) -> None:
        """The channel: a ``time`` notification becomes a letter, for a player who wants it."""
        if told.kind != "time" or told.room is None:
            return
        if not await self.notifications.wants(told.player_id, "time", "email"):
            return
        game = next((g for g in await self.waiting(told.player_id) if g.room == told.room), None)
        if game is None:
            return  # the player moved meanwhile
        links = self.links(told.player_id, "time")
        await self._send(
            f"letter:{told.key}",
            told.player_id,
            "time",
            lambda name: letters.time_almost_up(LANGUAGE, name, game, links),
        )

    # -- the daily digest -------------------------------------------------------------------

    async def sweep(self) -> int:
        """Send today's digest to each player who wants it, has games waiting on them and has
        not been sent it; returns how many this call sent. Nothing outside the day's window."""
        async with self._sweeping:
            now = self.clock.now()
            due = digest_day(now, self.hour)
            if due is None:
                return 0
            day, _ = due
            await self.db.write(partial(letter_queries.prune, now=now))
            players = await self.db.read(
                partial(letter_queries.digest_due, day=day, default=DEFAULTS["email"])
            )
            sent = 0
            for player_id in players:
                games = await self.waiting(player_id)
                if not games:
                    continue
                links = self.links(player_id, "turn")
                write: Callable[[str], Letter] = partial(_digest, games=games, links=links)
                key = letter_queries.digest_key(player_id, day)
                sent += await self._send(key, player_id, "turn", write)
            return sent

    async def settle(self) -> None:
        """Wait for a digest run under way to end (tests)."""
        async with self._sweeping:
            pass

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="digest")

    async def _run(self) -> None:
        while True:
            failed = False
            try:
                await self.sweep()
            except StorageError as error:  # the database went away: try again a bit later
                log.warning("the daily digest failed: %s", error)
                failed = True
            except Exception:  # a failed run must not stop the next day's
                log.exception("the daily digest failed")
                failed = True
            now = self.clock.now()
            wake = next_digest(now, self.hour)
            if failed:
                wake = min(wake, now + RETRY_SECONDS)
            await self.clock.sleep_until(wake)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task


def _digest(name: str, games: list[Waiting], links: Links) -> Letter:
    return letters.digest(LANGUAGE, name, games, links)
