"""Rooms: create a practice or friend room, look at one, take the empty seat."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from typing import Literal

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, Field

from bidak.economy.shop import table_checkers
from bidak.match import Player
from bidak.server.accounts import PlayerDep
from bidak.server.play import mute_queries
from bidak.server.play.deps import PlayDep, PlayServices
from bidak.server.play.options import PracticeOptions
from bidak.server.play.rematch import rematch
from bidak.server.play.room import Room, RoomError, RoomKind, bot_seat_name, is_bot_seat, seat_of
from bidak.server.play.schemas import RoomInfo, RoomOptions, SeatInfo
from bidak.server.shared import lookups
from bidak.server.shared.deps import site_address, too_soon
from bidak.server.shared.doors import Door, admit
from bidak.server.shared.store.models import PlayerRow

router = APIRouter(prefix="/api/rooms", tags=["rooms"])


def invite_url(request: Request, services: PlayServices, room: Room) -> str | None:
    if room.kind is not RoomKind.FRIEND:
        return None
    base = site_address(request, services)
    return f"{base}/#/room/{room.code}"


async def seat_infos(services: PlayServices, room: Room, viewer_id: str | None) -> list[SeatInfo]:
    """Who sits where: names, the bot's level, which seat is the viewer's, and each seat's
    checkers as every screen shows them (the second seat's fall back to a default set when the
    two players chose sets that look alike)."""
    names = await services.store.players([i for i in (room.seat0_id, room.seat1_id) if i])
    chosen = [names[i].checkers if i in names else None for i in (room.seat0_id, room.seat1_id)]
    looks = table_checkers(chosen[0], chosen[1])
    seats: list[SeatInfo] = []
    for index, seat_id in enumerate((room.seat0_id, room.seat1_id)):
        checkers = looks[index].id
        if is_bot_seat(room, Player(index)):
            seats.append(
                SeatInfo(name=bot_seat_name(room.bot_level), bot=room.bot_level, checkers=checkers)
            )
        else:
            name = names[seat_id].name if seat_id in names else None
            you = seat_id is not None and seat_id == viewer_id
            seats.append(SeatInfo(name=name, id=seat_id, you=you, checkers=checkers))
    return seats


async def room_info(
    request: Request, services: PlayServices, room: Room, player: PlayerRow
) -> RoomInfo:
    seats = await seat_infos(services, room, player.id)
    seat = seat_of(room, player.id)
    return RoomInfo(
        code=room.code,
        # A quick room shows as a friend room (two people at a table).
        kind="practice" if room.kind is RoomKind.PRACTICE else "friend",
        invite_url=invite_url(request, services, room),
        seat=None if seat is None else int(seat),
        seats=seats,
        match_id=room.match_id,
        move_seconds=room.move_seconds,
        days_per_move=room.days_per_move,
        rules=dict(room.rules),
    )


_FORBIDDEN = frozenset({"banned", "rated_banned", "guest"})
"""Refusals of the door check (:mod:`bidak.server.shared.doors`): 403, with their code."""


def _refused(error: RoomError) -> HTTPException:
    if error.code in _FORBIDDEN:
        return HTTPException(403, {"code": error.code, "message": error.message})
    return HTTPException(404 if error.code == "not_found" else 409, error.message)


@router.post("", response_model=RoomInfo, status_code=201)
async def create_room(
    options: RoomOptions, request: Request, player: PlayerDep, services: PlayDep
) -> RoomInfo:
    """Create a room. A practice match starts at once; a friend room waits for the invitee."""
    limits = services.limits
    too_soon(await limits.wait(limits.rooms, player.id, services.clock.now()), "new rooms")
    if isinstance(options, PracticeOptions):
        room = await services.rooms.create_practice(player, options)
    else:
        room = await services.rooms.create_friend(player, options)
    return await room_info(request, services, await services.rooms.room(room.code), player)


@router.get("/{code}", response_model=RoomInfo)
async def read_room(code: str, request: Request, player: PlayerDep, services: PlayDep) -> RoomInfo:
    await _may_look_up(request, services)
    try:
        room = await services.rooms.room(code)
    except RoomError as error:
        raise await _missed(request, services, error) from None
    return await room_info(request, services, room, player)


async def _may_look_up(request: Request, services: PlayServices) -> None:
    await lookups.admit(request, services, "unknown room codes")


async def _missed(request: Request, services: PlayServices, error: RoomError) -> HTTPException:
    """The refusal of a lookup; an unknown code counts against the address
    (:mod:`bidak.server.shared.lookups`)."""
    if error.code == "not_found":
        await lookups.count_miss(request, services)
    return _refused(error)


@router.post("/{code}/join", response_model=RoomInfo)
async def join_room(code: str, request: Request, player: PlayerDep, services: PlayDep) -> RoomInfo:
    """Take the empty seat of a friend room; when both seats are taken, the visitor watches."""
    await _may_look_up(request, services)
    try:
        await services.rooms.join(code, player)
        room = await services.rooms.room(code)
    except RoomError as error:
        raise await _missed(request, services, error) from None
    return await room_info(request, services, room, player)


class RematchOut(BaseModel):
    state: Literal["offered", "accepted"]
    by: int | None = Field(None, description="the seat that offered")
    until: float | None = Field(None, description="when the offer runs out (server time)")
    room: str | None = Field(None, description="the rematch's room, once accepted")


@router.post("/{code}/rematch", response_model=RematchOut)
async def ask_rematch(code: str, player: PlayerDep, services: PlayDep) -> RematchOut:
    """Offer a rematch after the match, or accept the other player's (within a minute): the
    same options, the same two players, seats swapped. Against a bot it starts at once; a
    player banned from play has rematches against bots only."""
    try:
        if (await services.rooms.room(code)).kind is not RoomKind.PRACTICE:
            admit(player, Door.SEAT)
        found = await rematch(services.rooms, code, player.id)
    except RoomError as error:
        raise _refused(error) from None
    return RematchOut(state=found.state, by=found.by, until=found.until, room=found.room)


class MuteIn(BaseModel):
    seat: Literal[0, 1]
    muted: bool = True


class MuteOut(BaseModel):
    seat: int
    muted: bool


@router.post("/{code}/mute", response_model=MuteOut)
async def mute(code: str, body: MuteIn, player: PlayerDep, services: PlayDep) -> MuteOut:
    """Mute (or unmute) the player in ``seat`` of this room: their table talk is not shown to
    you, and quick match never pairs you with them."""
    try:
        room = await services.rooms.room(code)
    except RoomError as error:
        raise _refused(error) from None
    other = (room.seat0_id, room.seat1_id)[body.seat]
    if other is None:  # an empty seat, or a bot
        raise HTTPException(409, "There is nobody to mute in that seat")
    if other == player.id:
        raise HTTPException(409, "You cannot mute yourself")
    if body.muted:
        work = partial(mute_queries.mute, player_id=player.id, muted_id=other, at=datetime.now(UTC))
    else:
        work = partial(mute_queries.unmute, player_id=player.id, muted_id=other)
    await services.db.write(work)
    return MuteOut(seat=body.seat, muted=body.muted)
