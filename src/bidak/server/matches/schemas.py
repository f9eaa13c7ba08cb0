"""HTTP bodies of a match's record: its events, its dice proof, its rating changes."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


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


Unrated = Literal["guest", "pair_limit"]


class MatchRating(BaseModel):
    match_id: str
    rated: bool = Field(description="false: not a rated match, or not over yet")
    players: list[RatingLine] = Field(description="seat 0 first")
    unrated: Unrated | None = Field(
        default=None,
        description="why a match of a rated room moved no rating: guest (a player has no linked"
        " e-mail address), pair_limit (the two already moved each other's ratings 3 times in"
        " the day)",
    )


# -- the engine's advice (bidak.engine.hints, bidak.engine.review_model) ------------------------
# The fields are in the order the engine writes them (the order they are sent); ``extra`` is
# forbidden so that a field the engine adds fails the tests instead of vanishing from answers.
