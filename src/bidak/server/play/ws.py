"""The WebSocket endpoint: one connection per client, JSON messages (docs/protocol.md).

A connection joins one room at a time. Intents go to the rooms service; whatever it stores comes
back through the bus to every connection at the room, each drawn for its own seat (only the
player on roll receives the legal plays). Errors come back as a message and the connection stays
open; malformed, oversized or too frequent messages change nothing.

Messages are limited twice: per connection, in this process's memory (a bucket checked at every
message), and per player over all their connections and processes, in the site's limiter
(Redis with several processes), asked once per :data:`~bidak.server.shared.limiter.MESSAGE_LEASE`
messages. A session holds at most ``BIDAK_SOCKETS_PER_SESSION`` sockets
(:mod:`bidak.server.shared.sockets`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Mapping
from functools import partial
from typing import Any, cast

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from bidak.fairplay.doors import MUTED
from bidak.match import Player
from bidak.server.accounts import COOKIE
from bidak.server.play.deps import PlayServices
from bidak.server.play.live import deadline_json
from bidak.server.play.mute_queries import silenced
from bidak.server.play.protocol import ClientMessage, Intent, Join, Ping, Talk, to_action
from bidak.server.play.room import RoomError, RoomKind, room_channel, seat_of
from bidak.server.play.routes import seat_infos
from bidak.server.play.views import dumps, with_table
from bidak.server.play.wire import messages
from bidak.server.play.wire.messages import EventItem, error, refusal
from bidak.server.play.wire.notes import EventsNote, talk_note
from bidak.server.shared import lookups
from bidak.server.shared.bus import RESYNC, BusLost, Subscription, player_channel
from bidak.server.shared.doors import Door, refused
from bidak.server.shared.limiter import MessageAllowance
from bidak.server.shared.limits import Bucket
from bidak.server.shared.sockets import SIGNED_OUT, SIGNED_OUT_REASON
from bidak.server.shared.store.db import StorageError
from bidak.server.shared.store.models import PlayerRow
from bidak.server.shared.store.rows import token_hash
from bidak.server.shared.validation import safe_text

router = APIRouter()
log = logging.getLogger(__name__)

RECONNECT = 1012
"""The close code that asks the client to reconnect (and join with ``since``): this process can
no longer promise it every event (its bus went deaf, or the store failed under its forwarder)."""
RECONNECT_REASON = "reconnect: the event stream broke"
TRY_LATER = 1013
"""The close code of a socket refused at its start because the session could not be read (the
database did not answer); the client tries again later."""

OVERSIZED_CLOSE = 5
"""Oversized messages after which a connection is closed (1009): the site's client never sends
one, so a client that keeps sending them is not the site's."""
OVERSIZED_REASON = "too big: this connection sent too many oversized messages"


class Connection:
    def __init__(self, socket: WebSocket, services: PlayServices, player: PlayerRow | None) -> None:
        self.socket = socket
        self.services = services
        self.player = player
        self.room: str | None = None
        self.seat: Player | None = None
        self.match: str | None = None
        self.version = 0
        self._send_lock = asyncio.Lock()
        self._forwarder: asyncio.Task[None] | None = None
        self._subscription: Subscription | None = None
        settings = services.settings
        self._limit = Bucket(settings.rate_per_second, settings.rate_burst, time.monotonic())
        self._shared = MessageAllowance(services.limits, player.id) if player else None
        self._personal: asyncio.Task[None] | None = None
        self._oversized = 0
        self._entry = secrets.token_hex(8)
        """This socket's name in the presence at tables (:mod:`bidak.server.shared.presence`)."""
        self._muted: set[str] | None = None
        """Whom this player muted, blocked or was blocked by (their table talk is not passed
        on), read at the first phrase heard after a join (most tables never talk: no read on
        every join)."""

    async def send(self, message: Mapping[str, Any] | str) -> None:
        """Send a message (:mod:`bidak.server.play.wire.messages`), or its JSON text already."""
        text = message if isinstance(message, str) else dumps(message)
        async with self._send_lock:
            await self.socket.send_text(text)

    async def listen_personal(self) -> None:
        """Forward the player's own messages (quick match, tournaments) to this socket, wherever
        it is."""
        if self.player is None:
            return
        subscription = await self.services.bus.subscribe(player_channel(self.player.id))

        async def forward() -> None:
            try:
                async for message in subscription:
                    if message.get("type") in ("quick", "tournament"):  # sent as it is
                        await self.send(message)
            except BusLost:
                await self.reconnect()
            except Exception:  # the socket went away meanwhile: the reader ends too
                log.debug("personal forwarder ended", exc_info=True)
            finally:
                await subscription.close()

        self._personal = asyncio.create_task(forward())

    async def run(self) -> None:
        limit = self.services.settings.max_message_bytes
        await self.listen_personal()
        try:
            while True:
                frame = await self.socket.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                text: str | None = frame.get("text")
                size = (
                    len(text.encode("utf-8"))
                    if text is not None
                    else len(frame.get("bytes") or b"")
                )
                # Every frame counts against the rate, whatever its size: oversized ones too.
                limited = self._limit.take(time.monotonic()) > 0 or (
                    self._shared is not None
                    and await self._shared.take(self.services.clock.now()) > 0
                )
                if size > limit:
                    self._oversized += 1
                    if self._oversized >= OVERSIZED_CLOSE:
                        await self.socket.close(code=1009, reason=OVERSIZED_REASON)
                        break
                if limited:
                    await self.send(error("rate_limited", "Too many messages; slow down"))
                    continue
                if size > limit:
                    await self.send(error("too_large", f"Messages are at most {limit} bytes"))
                    continue
                if text is None:  # a binary frame: the protocol is JSON text
                    await self.send(error("bad_message", "Messages are JSON in text frames"))
                    continue
                await self.handle(text)
        except WebSocketDisconnect:
            pass
        finally:
            await self._leave()
            if self._personal is not None:
                self._personal.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await self._personal

    async def reconnect(self) -> None:
        """Close the socket with :data:`RECONNECT`: the client comes back with ``since``."""
        with contextlib.suppress(Exception):
            await self.socket.close(code=RECONNECT, reason=RECONNECT_REASON)

    async def handle(self, text: str) -> None:
        try:
            await self._handle(text)
        except StorageError as failed:
            # Nothing, or everything, of an intent was stored (the actor found out which):
            # the client may send it again.
            log.warning("storage failed during a message: %s", failed)
            await self.send(error("busy", "The server is busy; try again", self.room))

    async def _handle(self, text: str) -> None:
        try:
            message = ClientMessage.validate_json(text)
        except ValidationError as invalid:
            first = invalid.errors()[0]
            where = safe_text(".".join(str(part) for part in first.get("loc", ())), 100)
            reason = safe_text(first["msg"])
            await self.send(error("bad_message", f"Not a valid message ({where}: {reason})"))
            return
        if isinstance(message, Ping):
            await self.send(messages.pong(self.services.clock.now()))
        elif isinstance(message, Join):
            try:
                await self.join(message)
            except StorageError as failed:
                # No table to show: the client joins again once it has reconnected.
                log.warning("storage failed during a join: %s", failed)
                await self._leave()
                await self.reconnect()
        elif isinstance(message, Intent):
            await self.intent(message)
        elif isinstance(message, Talk):
            await self.talk(message)

    async def join(self, message: Join) -> None:
        limits, now = self.services.limits, self.services.clock.now()
        address = self.socket.client.host if self.socket.client else ""
        if await lookups.may_look_up(limits, address, now) > 0:
            await self.send(refusal("rate_limited", "Too many unknown room codes", message.room))
            return
        try:
            room = await self.services.rooms.room(message.room)
        except RoomError as refused:
            if refused.code == "not_found":
                await lookups.missed(limits, address, now)
            await self.send(refusal(refused.code, refused.message, message.room))
            return
        await self._leave()
        self.room = room.code
        self.seat = seat_of(room, self.player.id) if self.player else None
        self._muted = None  # the mutes hold from each join on
        self._subscription = await self.services.bus.subscribe(room_channel(room.code))
        if self.player is not None:  # at the table: no push about it (notifications.push)
            await self.services.presence.arrived(self.player.id, room.code, self._entry)
        if room.kind is RoomKind.TOURNAMENT and room.match_id is None and self.player:
            # A tournament match starts when both players opened its table.
            await self.services.rooms.arrive(room.code, self.player.id)
        # Forward only after the snapshot: what is published meanwhile waits in the
        # subscription, and the forwarder then sends just the versions the snapshot lacked.
        await self.snapshot(since=message.since)
        self._forwarder = asyncio.create_task(self._forward(self._subscription))

    async def snapshot(self, since: int | None = None) -> None:
        assert self.room is not None
        services = self.services
        room = await services.rooms.room(self.room)
        self.seat = seat_of(room, self.player.id) if self.player else None
        seats = await seat_infos(services, room, self.player.id if self.player else None)
        seat = None if self.seat is None else int(self.seat)
        wire_seats = [messages.seat(info) for info in seats]
        if room.match_id is None:
            await self.send(
                messages.waiting_snapshot(
                    room=room.code,
                    kind=room.kind,
                    seat=seat,
                    seats=wire_seats,
                    move_seconds=room.move_seconds,
                    now=services.clock.now(),
                )
            )
            return
        live = await services.rooms.live(room.match_id)
        self.match, self.version = live.match_id, live.state.version
        missed: list[EventItem] | None = None
        if since is not None and since < live.state.version:
            stored = await services.store.events(live.match_id, after=since)
            missed = [
                {"version": r.version, "event": r.payload}
                for r in stored
                if r.version <= live.state.version  # later ones come as events
            ]
        head = messages.snapshot_head(
            room=room.code,
            kind=room.kind,
            seat=seat,
            seats=wire_seats,
            move_seconds=room.move_seconds,
            match=live.match_id,
            version=live.state.version,
            deadline=deadline_json(live),
            seed_hash=live.seed_hash,
            seed=live.seed if live.finished else None,
            now=services.clock.now(),
            missed=missed,
        )
        # The table is sent as the text the views keep.
        table = services.rooms.views.table(live.match_id, live.state, self.seat)
        await self.send(with_table(dumps(head), table))

    async def intent(self, message: Intent) -> None:
        if self.room is None:
            await self.send(error("not_joined", "Join a room first"))
            return
        if self.player is None:
            await self.send(
                error("not_seated", "Only the players at this table can act", self.room)
            )
            return
        try:
            await self.services.rooms.submit(
                self.room,
                self.player.id,
                lambda seat: to_action(message.action, seat),
                message.version,
            )
        except RoomError as refused:
            await self.send(refusal(refused.code, refused.message, self.room))

    async def talk(self, message: Talk) -> None:
        """A seated player's phrase, at most one per EVERY_SECONDS per player (all sockets)."""
        if self.room is None or self.player is None or self.seat is None:
            await self.send(error("not_seated", "Only the players at this table can talk"))
            return
        # Read now, not at the connection's start: a moderator's mute counts at once.
        speaker = await self.services.store.player(self.player.id)
        shut = MUTED if speaker is None else refused(speaker, Door.TALK)
        if shut is not None:
            # The door of talk has one refusal, a moderator's mute.
            await self.send(error("muted", shut.message, self.room))
            return
        limits = self.services.limits
        wait = await limits.wait(limits.talk, self.player.id, self.services.clock.now())
        if wait > 0:
            await self.send(
                error("rate_limited", "One phrase every few seconds, please", self.room)
            )
            return
        await self.services.bus.publish(
            room_channel(self.room),
            talk_note(int(self.seat), self.player.id, message.phrase),
        )

    async def _forward(self, subscription: Subscription) -> None:
        try:
            await self._forward_all(subscription)
        except BusLost:
            # Events may have been lost in between: the client must reconnect and take a
            # snapshot (1012: the service is restarting; the browser client reconnects).
            await self.reconnect()
        except StorageError as failed:
            # The store failed while a gap was filled: the client reconnects and asks again.
            log.warning("storage failed while forwarding events: %s", failed)
            await self.reconnect()

    async def resync(self) -> None:
        """The bus is back after a loss: send whatever was stored meanwhile (by ``since``)."""
        if self.room is None:
            return
        room = await self.services.rooms.room(self.room)
        if room.match_id is None:
            return
        if room.match_id != self.match:  # a match started meanwhile: the whole table
            await self.snapshot(since=0)
            return
        live = await self.services.rooms.live(room.match_id)
        if live.state.version > self.version:
            await self.snapshot(since=self.version)

    async def _mutes(self) -> set[str]:
        if self._muted is None:
            self._muted = (
                set()
                if self.player is None
                else await self.services.db.read(partial(silenced, player_id=self.player.id))
            )
        return self._muted

    async def _forward_all(self, subscription: Subscription) -> None:
        async for published in subscription:
            if published.get("type") == "rematch":  # a wire message, sent as it is
                await self.send(published)
                continue
            kind = published.get("kind")
            if kind == RESYNC:
                await self.resync()
                continue
            if kind == "talk":
                if published.get("player") not in await self._mutes():
                    await self.send(messages.talk(published["seat"], published["phrase"]))
                continue
            if kind != "events":
                continue
            message = cast(EventsNote, published)
            if message["match"] != self.match:
                # A match started at this room (a friend arrived): send the whole table.
                await self.snapshot(since=0)
                continue
            self.services.rooms.heard(message)
            first = message["from"]
            last = first + len(message["events"]) - 1
            if last <= self.version:
                continue  # already in a snapshot this client has
            views = self.services.rooms.views
            seen, self.version = self.version, last
            if first <= seen + 1:
                await self.send(views.events(message, self.seat, seen, self.services.clock.now()))
                continue
            # Another instance's message is late (or lost): fill the gap from the store.
            missed = await self.services.store.events(message["match"], after=seen)
            earlier: list[EventItem] = [
                {"version": r.version, "event": r.payload} for r in missed if r.version < first
            ]
            await self.send(
                views.compose(message, self.seat, earlier, seen, self.services.clock.now())
            )

    async def _leave(self) -> None:
        if self._forwarder is not None:
            self._forwarder.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._forwarder
            self._forwarder = None
        if self._subscription is not None:
            await self._subscription.close()
            self._subscription = None
        if self.room is not None and self.player is not None:
            await self.services.presence.left(self.player.id, self.room, self._entry)
        self.room = self.match = None
        self.version = 0


@router.websocket("/ws")
async def socket(websocket: WebSocket) -> None:
    services: PlayServices = websocket.app.state.services
    token = websocket.cookies.get(COOKIE)
    try:
        player = await services.store.player_for_token(token) if token else None
    except StorageError as failed:
        # Who this is cannot be known now: refuse clearly rather than serve a stranger.
        log.warning("a socket refused: the session could not be read (%s)", failed)
        await websocket.accept()
        await websocket.close(code=TRY_LATER, reason="busy: the session could not be read")
        return
    # A socket without a session counts against its address's allowance instead.
    if token and player is not None:
        session = token_hash(token)
    else:
        session = "address:" + (websocket.client.host if websocket.client else "")
    await websocket.accept()

    async def close(code: int, reason: str) -> None:
        await websocket.close(code=code, reason=reason)

    entry = await services.sockets.opened(session, close, player.id if player else None)
    try:
        # A session ended between the read above and the socket being listed was announced
        # before this socket could hear it: read it once more now that it is listed.
        if token and player is not None and await services.store.player_for_token(token) is None:
            await close(SIGNED_OUT, SIGNED_OUT_REASON)
            return
        await Connection(websocket, services, player).run()
    finally:
        await services.sockets.closed(session, entry)
