"""Notifications over HTTP: the visitor's list, the bell's unread count, mark read."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, ConfigDict, Field

from bidak.server.accounts import PlayerDep
from bidak.server.notifications.deps import NotifyDep
from bidak.server.notifications.service import CHANNELS, KINDS

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
    room: str | None = Field(
        None,
        max_length=32,
        description="instead of ids: every one of yours about this table (the page opened it)",
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
    """Mark your notifications ``ids`` read (those of ``room``: the table was opened; all of
    yours without either)."""
    await services.notifications.mark_read(player.id, body.ids, body.room)
    return UnreadOut(unread=await services.notifications.unread(player.id))


class SettingsOut(BaseModel):
    push: dict[str, bool] = Field(description="per kind: a Web Push to your browsers")
    email: dict[str, bool] = Field(
        description="turn (the daily digest of games waiting on you) and time (almost up): "
        "an e-mail to your linked address"
    )
    email_linked: bool = Field(description="false: e-mail goes nowhere until you link one")


class ChoiceIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    channel: Literal["push", "email"]
    kind: str = Field(max_length=16, description="one of the kinds the channel carries")
    on: bool


async def _settings(player_id: str, linked: bool, services: NotifyDep) -> SettingsOut:
    chosen = await services.notifications.settings(player_id)
    return SettingsOut(push=chosen["push"], email=chosen["email"], email_linked=linked)


@router.get("/api/notifications/settings", response_model=SettingsOut)
async def settings(player: PlayerDep, services: NotifyDep) -> SettingsOut:
    """Where each kind of notification goes besides the page (which always shows it)."""
    return await _settings(player.id, bool(player.email), services)


@router.put("/api/notifications/settings", response_model=SettingsOut)
async def choose(body: ChoiceIn, player: PlayerDep, services: NotifyDep) -> SettingsOut:
    """Switch one kind on one channel on or off. E-mail needs a linked address (409
    ``no_address``); a kind the channel does not carry is 422 ``unknown_kind``."""
    if body.kind not in CHANNELS[body.channel]:
        known = ", ".join(CHANNELS[body.channel] if body.kind in KINDS else KINDS)
        raise HTTPException(
            422,
            {"code": "unknown_kind", "message": f"{body.channel} carries only: {known}"},
        )
    if body.channel == "email" and body.on and not player.email:
        raise HTTPException(409, {"code": "no_address", "message": "link an e-mail address first"})
    await services.notifications.choose(player.id, body.kind, body.channel, body.on)
    return await _settings(player.id, bool(player.email), services)
