"""HTTP request and response bodies (separate from database rows and core values)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from bidak.server.rooms.options import FriendOptions, PracticeOptions

RoomOptions = Annotated[PracticeOptions | FriendOptions, Field(discriminator="kind")]


class Me(BaseModel):
    id: str
    name: str
    coins: int
    email_linked: bool
    email: str | None = Field(default=None, description="the linked address, partly masked")
    rating: float = 1500.0


class Rename(BaseModel):
    name: str = Field(max_length=200)
    """Checked by :func:`bidak.server.names.clean_name` (2 to 24 characters once cleaned)."""


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
    rules: dict[str, object]


class HistoryItem(BaseModel):
    room: str
    match_id: str
    kind: str
    seat: int = Field(description="your seat in the match (0 or 1)")
    opponent: str
    bot: str | None = Field(None, description="the bot's level, in practice matches")
    length: int
    score: list[int] = Field(description="your score first")
    finished: bool
    won: bool | None
    updated_at: str


class EventItem(BaseModel):
    version: int
    event: dict[str, object]


class MatchEvents(BaseModel):
    match_id: str
    finished: bool
    events: list[EventItem]


class DiceProof(BaseModel):
    match_id: str
    algorithm: str
    seed_hash: str
    seed: str | None = Field(description="revealed when the match has ended")
    dice_drawn: int
    dice: list[int] | None = Field(description="every die of the match, once the seed is known")


class RatingLine(BaseModel):
    seat: int
    before: float
    change: float
    after: float


class MatchRating(BaseModel):
    match_id: str
    rated: bool = Field(description="false: not a rated match, or not over yet")
    players: list[RatingLine] = Field(description="seat 0 first")
