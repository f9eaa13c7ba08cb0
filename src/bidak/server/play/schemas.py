"""HTTP bodies of playing: a room, its seats, and the options a room is made with."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from bidak.server.play.options import FriendOptions, PracticeOptions

RoomOptions = Annotated[PracticeOptions | FriendOptions, Field(discriminator="kind")]


class SeatInfo(BaseModel):
    name: str | None
    id: str | None = Field(
        default=None, description="the player account id (profiles); none for a bot"
    )
    bot: str | None = None
    you: bool = False
    checkers: str = Field("ivory", description="the checker set this seat's checkers show in")


class RoomInfo(BaseModel):
    code: str
    kind: Literal["practice", "friend"]
    invite_url: str | None
    seat: int | None = Field(description="your seat (0 or 1), or null when you watch")
    seats: list[SeatInfo]
    match_id: str | None
    move_seconds: int | None
    days_per_move: int | None = Field(None, description="a correspondence room: days per move")
    rules: dict[str, object]
