"""HTTP bodies of the player's own account: who I am, a new name, my matches."""

from __future__ import annotations

from pydantic import BaseModel, Field


class Me(BaseModel):
    id: str
    name: str
    coins: int
    email_linked: bool
    email: str | None = Field(default=None, description="the linked address, partly masked")
    rating: float = 1500.0
    signed_out: bool = Field(
        default=False,
        description="this browser came with a session that has ended (signed out elsewhere):"
        " it is now this new guest",
    )


class Rename(BaseModel):
    name: str = Field(max_length=200)
    """Checked by :func:`bidak.server.accounts.names.clean_name` (2 to 24 characters once
    cleaned)."""


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
