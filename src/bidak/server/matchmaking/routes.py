"""Quick match over HTTP: wait for an opponent, stop waiting, and where one stands."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Response
from pydantic import BaseModel, ConfigDict, Field

from bidak.pairing import Options
from bidak.server.accounts import PlayerDep
from bidak.server.matchmaking.deps import QuickDep
from bidak.server.shared.doors import Door, admit

router = APIRouter(prefix="/api/quick", tags=["quick match"])


class QuickIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    length: Literal[1, 3, 5, 7] = 3
    move_seconds: Literal[30, 45, 90] = 45
    cube: bool = True


class QuickOptions(BaseModel):
    length: int
    move_seconds: int
    cube: bool


class QuickStatus(BaseModel):
    waiting: bool
    since: float | None = None
    waited: float | None = Field(None, description="seconds waited so far")
    options: QuickOptions | None = None
    offered: bool = Field(False, description="a practice match was offered for the long wait")
    room: str | None = Field(None, description="the player's quick match in play, if any")


async def _status(player_id: str, services: QuickDep) -> QuickStatus:
    status = QuickStatus(**await services.quick.status(player_id))
    status.room = await services.store.quick_room_in_play(player_id)
    return status


@router.post("", response_model=QuickStatus)
async def join(body: QuickIn, player: PlayerDep, services: QuickDep) -> QuickStatus:
    """Wait for an opponent with these options (nearest rating first); updates come over the
    player's WebSocket (``{"type": "quick", ...}``). Paired at once if someone is waiting."""
    admit(player, Door.QUICK)
    options = Options(body.length, body.move_seconds, body.cube)
    await services.quick.join(player.id, player.rating, options)
    return await _status(player.id, services)


@router.get("", response_model=QuickStatus)
async def status(player: PlayerDep, services: QuickDep) -> QuickStatus:
    return await _status(player.id, services)


@router.delete("", status_code=204, response_class=Response)
async def leave(player: PlayerDep, services: QuickDep) -> Response:
    """Stop waiting (nothing happens if the player was not waiting)."""
    await services.quick.leave(player.id)
    return Response(status_code=204)
