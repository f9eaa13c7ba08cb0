"""Tournaments' use cases: create, join, pause, check in, look; and running them.

Every process runs :meth:`Tournaments.tick` every :data:`TICK_SECONDS` on the injected clock: it
makes the site's next scheduled arena and knockout (each stored once, by its schedule slot) and
steps each tournament not over whose lease it holds or may take (:func:`queries.step`: one
transaction that takes or renews the lease, records the matches that ended, and plans the next).
The lease lasts ``tournament_lease_seconds`` (:data:`LEASE_SECONDS` by default): when its holder
dies, another process takes it over at its next tick after that. Then the rooms of the planned
matches are made (rated, with the move clock, through :class:`~bidak.server.play.RoomService`),
each by the code planned, so a room is never made twice; the players hear of their match and of
the changed standings on their own bus channel. Coins are never read or written here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from datetime import UTC, datetime
from functools import partial
from typing import Any

from sqlalchemy.exc import DBAPIError

from bidak.match import RuleSet, TimeoutPolicy
from bidak.server.play import (
    TOURNAMENT_ENDS,
    RoomService,
    new_room_code,
    tournament_changed,
    tournament_paired,
)
from bidak.server.shared.bus import Bus, player_channel
from bidak.server.shared.clocks import Clock
from bidak.server.shared.settings import Settings
from bidak.server.shared.store.db import Database, StorageError
from bidak.server.tournaments import entry_queries, queries, whereabouts_queries
from bidak.server.tournaments.queries import TournamentError
from bidak.server.tournaments.tables import TournamentRow
from bidak.tournament import arena, knockout

log = logging.getLogger(__name__)

TICK_SECONDS = 1.0
"""How often each process steps the tournaments (after a match ends, its next pairing comes at
the next tick at the latest)."""
MAKING_AT_ONCE = 8
"""Rooms of newly paired matches made at the same time (each is a few short transactions)."""
LEASE_SECONDS = 10.0
"""How long a tournament's lease holds without renewal by default (the setting
``tournament_lease_seconds``): a dead holder's tournaments wait at most this long (plus a tick)
for another process."""


class Tournaments:
    def __init__(
        self,
        db: Database,
        rooms: RoomService,
        bus: Bus,
        clock: Clock,
        settings: Settings,
        owner: str | None = None,
    ) -> None:
        self.db, self.rooms, self.bus, self.clock, self.settings = db, rooms, bus, clock, settings
        self.owner = owner or f"{settings.instance_id or 'bidak'}-{secrets.token_hex(6)}"
        """This process's name on the leases it holds."""
        self._loop: asyncio.Task[None] | None = None
        self._ears: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._scheduled: dict[str, int] = {}
        """Per kind, the start of the last schedule slot this process made sure of."""
        self._lock = asyncio.Lock()

    # -- creating and joining ----------------------------------------------------------------

    async def create_knockout(
        self,
        creator_id: str,
        name: str,
        max_players: int,
        lengths: tuple[int, ...],
        move_seconds: int,
        starts_in: float,
        round_seconds: float,
    ) -> str:
        """A player's knockout, private (its id is the invite link); the creator joins it."""
        knockout.bracket_size(max_players)  # 4 to 64
        if not lengths or any(n not in knockout.LENGTHS for n in lengths):
            raise TournamentError("bad_length", "A knockout's matches are 3 to 11 points")
        row = self._row(
            "knockout",
            name,
            creator_id,
            self.clock.now() + starts_in,
            lengths,
            move_seconds,
            max_players,
            round_seconds=round_seconds,
            private=True,
        )
        await self.db.write(partial(entry_queries.create, row=row))
        return row.id

    async def create_arena(
        self,
        name: str,
        starts_at: float,
        minutes: int,
        length: int,
        move_seconds: int,
        *,
        schedule_key: str | None = None,
        max_players: int = 1000,
    ) -> str | None:
        """A site arena; None when its schedule slot has one already (another process)."""
        if length not in arena.LENGTHS:
            raise TournamentError("bad_length", "An arena's matches are 1 or 3 points")
        row = self._row(
            "arena",
            name,
            None,
            starts_at,
            (length,),
            move_seconds,
            max_players,
            ends_at=starts_at + minutes * 60,
            schedule_key=schedule_key,
        )
        made = await self.db.write(partial(entry_queries.create, row=row))
        return row.id if made else None

    def _row(
        self,
        kind: str,
        name: str,
        creator_id: str | None,
        starts_at: float,
        lengths: tuple[int, ...],
        move_seconds: int,
        max_players: int,
        **extra: Any,
    ) -> TournamentRow:
        return TournamentRow(
            id=new_room_code(),
            kind=kind,
            name=name,
            creator_id=creator_id,
            created_at=datetime.now(UTC),
            starts_at=starts_at,
            lengths={"rounds": list(lengths)},
            move_seconds=move_seconds,
            max_players=max_players,
            status="open",
            private=extra.pop("private", False),
            **extra,
        )

    async def join(self, tournament_id: str, player_id: str, rating: float) -> None:
        await self.db.write(
            partial(
                entry_queries.join,
                tournament_id=tournament_id,
                player_id=player_id,
                rating=rating,
                now=self.clock.now(),
            )
        )
        await self._changed(tournament_id)

    async def pause(self, tournament_id: str, player_id: str, paused: bool) -> None:
        await self.db.write(
            partial(
                entry_queries.set_paused,
                tournament_id=tournament_id,
                player_id=player_id,
                paused=paused,
            )
        )
        await self._changed(tournament_id)

    async def check_in(self, tournament_id: str, player_id: str) -> str | None:
        """The player came to their knockout match: its room (started when both came)."""
        found = await self.db.write(
            partial(entry_queries.check_in, tournament_id=tournament_id, player_id=player_id)
        )
        if found is None:
            return None
        code, both = found
        await self.rooms.arrive(code, player_id)  # checking in is coming to the table
        if both:
            await self.rooms.start_tournament_match(code)
        return code

    async def view(self, tournament_id: str) -> dict[str, Any]:
        return await self.db.read(partial(queries.view, tournament_id=tournament_id))

    async def mine(self, player_id: str) -> dict[str, Any]:
        """Whether the player is in a tournament not over, and the match waiting for them."""
        return await self.db.read(partial(whereabouts_queries.mine, player_id=player_id))

    async def of_room(self, code: str, player_id: str) -> dict[str, Any] | None:
        """The tournament of a table, as its player (or a spectator) sees it there."""
        found = await self.db.read(
            partial(whereabouts_queries.of_room, code=code, player_id=player_id)
        )
        if found is not None:
            found["grace"] = self.settings.tournament_grace_seconds
        return found

    async def listing(self) -> list[dict[str, Any]]:
        return await self.db.read(partial(queries.listing, since=self.clock.now() - 3600))

    # -- running -----------------------------------------------------------------------------

    async def schedule(self) -> list[str]:
        """Make the site's next arena and knockout (each starting at the next multiple of its
        ``*_every_minutes``), unless they exist; the ids of those this call made."""
        made = []
        arena_slot = self._next_slot("arena", self.settings.arena_every_minutes)
        if arena_slot is not None:
            minutes = self.settings.arena_minutes
            made.append(
                await self.create_arena(
                    f"Arena {minutes}",
                    float(arena_slot),
                    minutes,
                    self.settings.arena_length,
                    self.settings.arena_move_seconds,
                    schedule_key=f"arena-{arena_slot}",
                )
            )
            self._scheduled["arena"] = arena_slot
        knockout_slot = self._next_slot("knockout", self.settings.knockout_every_minutes)
        if knockout_slot is not None:
            made.append(await self.create_site_knockout(float(knockout_slot)))
            self._scheduled["knockout"] = knockout_slot
        return [found for found in made if found is not None]

    def _next_slot(self, kind: str, every_minutes: int) -> int | None:
        """The start of the next slot of a schedule; None if the schedule is off or this
        process saw to that slot already (no write every tick)."""
        every = every_minutes * 60
        if every <= 0:
            return None
        starts = (int(self.clock.now()) // every + 1) * every
        return None if self._scheduled.get(kind) == starts else starts

    async def create_site_knockout(self, starts_at: float) -> str | None:
        """The site's knockout of a schedule slot, public, run by nobody (players join it from
        the lobby); None when the slot has one already (another process)."""
        settings = self.settings
        row = self._row(
            "knockout",
            f"Knockout {settings.knockout_players}",
            None,
            starts_at,
            (settings.knockout_length,),
            settings.knockout_move_seconds,
            settings.knockout_players,
            round_seconds=settings.knockout_round_minutes * 60.0,
            schedule_key=f"knockout-{int(starts_at)}",
        )
        made = await self.db.write(partial(entry_queries.create, row=row))
        return row.id if made else None

    async def tick(self) -> int:
        """One pass over every tournament not over; how many this process stepped."""
        async with self._lock:
            await self.schedule()
            stepped = 0
            now = self.clock.now()
            for tournament_id in await self.db.read(partial(queries.active, now=now)):
                stepped += await self.step(tournament_id)
            return stepped

    async def step(self, tournament_id: str) -> bool:
        """Step one tournament if this process holds its lease; whether it did."""
        done = await self.db.write(
            partial(
                queries.step,
                tournament_id=tournament_id,
                owner=self.owner,
                now=self.clock.now(),
                lease_seconds=self.settings.tournament_lease_seconds,
                new_code=new_room_code,
                grace=self.settings.tournament_grace_seconds,
            )
        )
        if done is None:
            return False
        for code in done.start:
            await self.rooms.start_tournament_match(code)
        await self.make_rooms(tournament_id)
        if done.changed:
            await self._changed(tournament_id)
        return True

    async def make_rooms(self, tournament_id: str) -> int:
        """Make the room of every planned match that has none (or, in an arena, start its
        match), :data:`MAKING_AT_ONCE` at a time; tell both players. How many were made."""
        at_once = self.settings.tournament_grace_seconds <= 0
        rows = await self.db.read(
            partial(queries.unmade, tournament_id=tournament_id, at_once=at_once)
        )
        gate = asyncio.Semaphore(MAKING_AT_ONCE)

        async def make(row: Any) -> None:
            rules = RuleSet(
                length=row.length, cube=True, timeout_policy=TimeoutPolicy.THREE_STRIKES
            )
            async with gate:
                await self.rooms.create_tournament_room(
                    row.room_code,
                    (row.seat0_id, row.seat1_id),
                    rules,
                    row.move_seconds,
                    # Started when both players opened the table (or the grace ran out).
                    start=at_once and row.kind == "arena",
                )
            for player in (row.seat0_id, row.seat1_id):
                await self._tell(player, tournament_paired(tournament_id, row.room_code))
                # The notification centre's (stored once per match and player).
                key = f"tournament:{row.room_code}:{player}"
                await self.rooms.notify(key, player, "tournament", row.room_code)

        await asyncio.gather(*(make(row) for row in rows))
        return len(rows)

    async def _changed(self, tournament_id: str) -> None:
        players = await self.db.read(partial(queries.players_of, tournament_id=tournament_id))
        message = tournament_changed(tournament_id, int(self.clock.now() * 1000))
        for player in players:
            await self._tell(player, message)

    async def _tell(self, player_id: str, message: Any) -> None:
        try:
            await self.bus.publish(player_channel(player_id), message)
        except Exception:  # the state is in the database: a lost update is seen on reload
            log.warning("could not tell %s about a tournament: %r", player_id, message)

    def start(self) -> None:
        self._loop = asyncio.create_task(self._forever())
        self._ears = asyncio.create_task(self._listen())

    async def _listen(self) -> None:
        """A tournament match ended (in any process): step now, not at the next tick."""
        while True:
            try:
                subscription = await self.bus.subscribe(TOURNAMENT_ENDS)
                try:
                    async for _ in subscription:
                        self._wake.set()
                finally:
                    await subscription.close()
            except asyncio.CancelledError:
                raise
            except Exception:  # pragma: no cover - the ticks go on; listen again
                log.warning("tournaments stopped hearing match ends; listening again")
                await self.clock.sleep_until(self.clock.now() + TICK_SECONDS)

    async def _forever(self) -> None:
        while True:
            self._wake.clear()
            try:
                await self.tick()
            except (StorageError, DBAPIError, OSError) as lost:  # the next tick tries again
                log.warning("a tournament step failed: the database did not answer (%s)", lost)
            except Exception:  # pragma: no cover - the next tick tries again
                log.exception("a tournament step failed")
            if self._wake.is_set():
                continue
            sleeping = asyncio.ensure_future(
                self.clock.sleep_until(self.clock.now() + TICK_SECONDS)
            )
            woken = asyncio.ensure_future(self._wake.wait())
            try:
                await asyncio.wait((sleeping, woken), return_when=asyncio.FIRST_COMPLETED)
            finally:
                for waiting in (sleeping, woken):
                    waiting.cancel()

    async def stop(self) -> None:
        for task in (self._loop, self._ears):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
