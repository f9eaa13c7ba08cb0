"""Rematch: after a match, either player offers; if the other accepts within a minute, a new
match with the same options starts for the same two players.

The offer lives in the room's row, so it holds across processes: accepting is one conditional
update (the offer must be the other player's, less than :data:`OFFER_SECONDS` old, and not yet
taken), so two accepts at once start one rematch. Each change is published on the room's
channel as the wire's ``rematch`` message (:data:`bidak.server.play.wire.messages.RematchMessage`),
which every connection at the room forwards unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bidak.match import rules_from_json
from bidak.server.play.rematch_queries import RematchOffers
from bidak.server.play.room import (
    Room,
    RoomError,
    RoomKind,
    new_room_code,
    room_channel,
    seat_of,
)
from bidak.server.play.service import RoomService
from bidak.server.play.wire.messages import rematch_accepted, rematch_offered

OFFER_SECONDS = 60.0


@dataclass(frozen=True)
class Rematch:
    state: Literal["offered", "accepted"]
    """Offered (waiting for the other player) or accepted (``room`` is the rematch's)."""
    by: int | None = None
    """The seat that offered."""
    until: float | None = None
    room: str | None = None


async def rematch(rooms: RoomService, code: str, player_id: str) -> Rematch:
    """Offer a rematch, or accept the other player's offer (which starts it)."""
    room = await rooms.room(code)
    seat = seat_of(room, player_id)
    if seat is None:
        raise RoomError("not_seated", "Only the players of this match can ask for a rematch")
    if room.kind is RoomKind.TOURNAMENT:
        raise RoomError("tournament", "A tournament decides who plays next: no rematch")
    if room.match_id is None or not (await rooms.live(room.match_id)).finished:
        raise RoomError("not_over", "A rematch can be asked for when the match is over")
    store = RematchOffers(rooms.store.db)
    now = rooms.clock.now()
    offer = await store.rematch_offer(code)
    if offer.room is not None:
        return Rematch("accepted", room=offer.room)
    live_offer = offer.by is not None and offer.at is not None and offer.at >= now - OFFER_SECONDS
    practice = room.kind is RoomKind.PRACTICE
    if practice or (live_offer and offer.by != player_id):
        return await _start(rooms, room, offer.by or player_id, now)
    offer = await store.offer_rematch(code, player_id, now)
    if offer.room is not None:
        return Rematch("accepted", room=offer.room)
    until = now + OFFER_SECONDS
    await rooms.bus.publish(room_channel(code), rematch_offered(int(seat), until))
    return Rematch("offered", by=int(seat), until=until)


async def _start(rooms: RoomService, room: Room, offered_by: str, now: float) -> Rematch:
    new = new_room_code()
    offers = RematchOffers(rooms.store.db)
    accepted = await offers.accept_rematch(room.code, offered_by, now - OFFER_SECONDS, new)
    if not accepted:
        offer = await offers.rematch_offer(room.code)
        if offer.room is not None:
            return Rematch("accepted", room=offer.room)
        raise RoomError("expired", "The rematch offer ran out; offer one yourself")
    rules = rules_from_json(room.rules)
    # The other player starts in seat 0 this time (against a bot, the person keeps seat 0).
    seats = (
        (room.seat0_id, None) if room.kind is RoomKind.PRACTICE else (room.seat1_id, room.seat0_id)
    )
    twin = await rooms.new_room(
        room.creator_id,
        room.kind,
        rules,
        seats=seats,
        code=new,
        bot_level=room.bot_level,
        move_seconds=room.move_seconds,
        days_per_move=room.days_per_move,  # a correspondence rematch is one too
        rated=room.rated,
        private=room.private,
    )
    await rooms.start_match(twin, rules)
    await rooms.bus.publish(room_channel(room.code), rematch_accepted(new))
    return Rematch("accepted", room=new)
