"""The engine's advice over HTTP: hints at a practice table, and the review of a match.

Both run the engine off the event loop (a worker thread). A review is kept in memory per match
version and level, so opening it again costs nothing.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any, Literal

from fastapi import APIRouter, HTTPException

from bidak.engine.hints import state_hint
from bidak.engine.review import review_match
from bidak.errors import BidakError
from bidak.match import event_from_json
from bidak.server.rooms.service import RoomError, seat_of
from bidak.server.services import PlayerDep, ServicesDep

router = APIRouter(tags=["analysis"])

Level = Literal["1ply", "2ply", "3ply"]
_REVIEWS: OrderedDict[tuple[str, int, str], dict[str, Any]] = OrderedDict()
_KEEP = 64


@router.get("/api/rooms/{code}/hint")
async def hint(
    code: str, player: PlayerDep, services: ServicesDep, level: Level = "2ply"
) -> dict[str, Any]:
    """The best plays (with equities) or the cube verdict for the decision you face now.

    Practice rooms only: in a friend room it would be help from outside the table.
    """
    try:
        room = await services.rooms.room(code)
    except RoomError as error:
        raise HTTPException(404, error.message) from None
    seat = seat_of(room, player.id)
    if room.kind != "practice" or seat is None:
        raise HTTPException(403, "Hints are for your own practice matches")
    if room.match_id is None:
        raise HTTPException(409, "The match has not started")
    state = (await services.rooms.live(room.match_id)).state
    deciding = state.turn is seat and state.phase.value in ("roll", "move")
    if not deciding and not (state.phase.value == "doubled" and state.turn is not seat):
        raise HTTPException(409, "There is no decision of yours to advise on right now")
    try:
        advice = await asyncio.to_thread(state_hint, state, level)
    except BidakError as error:
        raise HTTPException(409, str(error)) from None
    if advice is None:
        raise HTTPException(409, "There is no decision of yours to advise on right now")
    return {"version": state.version, "kind": type(advice).__name__, "hint": advice.to_json()}


@router.get("/api/matches/{match_id}/review")
async def review(match_id: str, services: ServicesDep, level: Level = "1ply") -> dict[str, Any]:
    """Every decision of the match with the engine's verdict, the luck of each roll, and each
    player's totals (PR, errors, blunders, luck)."""
    row = await services.store.match(match_id)
    if row is None:
        raise HTTPException(404, "There is no such match")
    key = (match_id, row.version, level)
    cached = _REVIEWS.get(key)
    if cached is not None:
        _REVIEWS.move_to_end(key)
        return cached
    rows = await services.store.events(match_id)
    events = [event_from_json(r.payload) for r in rows]
    try:
        result = await asyncio.to_thread(review_match, events, level)
    except BidakError as error:
        raise HTTPException(409, str(error)) from None
    body: dict[str, Any] = {"match_id": match_id, "version": row.version, **result.to_json()}
    _REVIEWS[key] = body
    while len(_REVIEWS) > _KEEP:
        _REVIEWS.popitem(last=False)
    return body
