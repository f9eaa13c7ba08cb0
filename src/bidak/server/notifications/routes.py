"""Notifications over HTTP: the visitor's list, the bell's unread count, mark read."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from bidak.server.accounts import PlayerDep
from bidak.server.notifications.deps import NotifyDep

router = APIRouter(tags=["notifications"])


class NoteOut(BaseModel):
    id: int
    kind: str = Field(
        description="turn, time (almost up), over, moderator, tournament, challenge (you were"
        " challenged), accepted or declined (your challenge)"
    )
    room: str | None = Field(
        description="the table a tap opens (/#/room/<room>); null: none (a challenge opens"
        " 'Your games', a declined one the friends page)"
    )
    at: float = Field(description="when (server time)")
    read: bool


class NotesOut(BaseModel):
    unread: int
    notes: list[NoteOut] = Field(description="the newest 50, newest first")


class UnreadOut(BaseModel):
    unread: int = Field(description="the bell's count")


class ReadIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    ids: list[int] | None = Field(
        None, max_length=100, description="the notifications read; null: all of yours"
    )


@router.get("/api/notifications", response_model=NotesOut)
async def notes(player: PlayerDep, services: NotifyDep) -> NotesOut:
    """Your newest notifications and how many are unread."""
    found = await services.notifications.newest(player.id)
    return NotesOut(
        unread=await services.notifications.unread(player.id),
        notes=[NoteOut(id=n.id, kind=n.kind, room=n.room, at=n.at, read=n.read) for n in found],
    )


@router.get("/api/notifications/unread", response_model=UnreadOut)
async def unread(player: PlayerDep, services: NotifyDep) -> UnreadOut:
    """How many of your notifications are unread (the header's bell)."""
    return UnreadOut(unread=await services.notifications.unread(player.id))


@router.post("/api/notifications/read", response_model=UnreadOut)
async def mark_read(body: ReadIn, player: PlayerDep, services: NotifyDep) -> UnreadOut:
    """Mark your notifications ``ids`` read (all of yours without ``ids``)."""
    await services.notifications.mark_read(player.id, body.ids)
    return UnreadOut(unread=await services.notifications.unread(player.id))
