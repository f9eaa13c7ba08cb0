"""HTTP bodies of tournaments: creating a knockout, the list, one tournament as a player sees
it (its standings or its bracket, and their own next match)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Length = Literal[3, 5, 7, 9, 11]


def _three() -> list[Length]:
    return [3]


class KnockoutIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field("Knockout", min_length=1, max_length=80)
    max_players: Literal[4, 8, 16, 32, 64] = 8
    lengths: list[Length] = Field(
        default_factory=_three,
        min_length=1,
        max_length=6,
        description="the match length of each round; the last one for the rounds after",
    )
    move_seconds: Literal[30, 45, 90] = 45
    starts_in_minutes: int = Field(10, ge=0, le=7 * 24 * 60)
    round_minutes: int = Field(30, ge=1, le=24 * 60, description="each round's deadline")


class PauseIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    paused: bool


class Created(BaseModel):
    id: str


class TournamentItem(BaseModel):
    id: str
    kind: Literal["arena", "knockout"]
    name: str
    status: Literal["open", "running", "finished", "cancelled"]
    starts_at: float
    ends_at: float | None
    length: int = Field(description="the first round's match length")
    move_seconds: int
    players: int


class TournamentList(BaseModel):
    now: float = Field(description="the server's time, for the countdowns")
    tournaments: list[TournamentItem]


class StandingOut(BaseModel):
    rank: int
    id: str
    name: str
    score: int
    wins: int
    played: int
    streak: int
    playing: bool
    paused: bool


class SeatOut(BaseModel):
    id: str
    name: str
    seed: int


class SlotOut(BaseModel):
    a: SeatOut | None
    b: SeatOut | None
    winner: str | None
    how: Literal["played", "bye", "forfeit"] | None
    room: str | None = Field(description="the match's room, once planned")


class NextMatch(BaseModel):
    room: str
    opponent: str
    opponent_name: str
    started: bool = Field(description="false: waiting for both players to check in")
    round: int | None


class TournamentView(BaseModel):
    id: str
    kind: Literal["arena", "knockout"]
    name: str
    status: Literal["open", "running", "finished", "cancelled"]
    now: float
    starts_at: float
    ends_at: float | None
    round_deadline: float | None
    lengths: list[int]
    move_seconds: int
    max_players: int
    players: int
    private: bool
    winner: str | None
    winner_name: str | None
    joined: bool
    paused: bool
    standings: list[StandingOut]
    bracket: list[list[SlotOut]] | None
    current_round: int | None
    next_match: NextMatch | None


class Waiting(BaseModel):
    tournament: str
    room: str


class Mine(BaseModel):
    active: bool = Field(description="in a tournament not over")
    waiting: Waiting | None = Field(
        description="a match of yours whose table waits for you (its clock starts when you come)"
    )


class TableTournament(BaseModel):
    id: str
    name: str
    kind: Literal["arena", "knockout"]
    status: Literal["open", "running", "finished", "cancelled"]
    round: int | None = Field(description="knockout: the match's round, from 0")
    rounds: int | None = Field(description="knockout: how many rounds the bracket has")
    number: int = Field(description="the match's number among the player's in the tournament")
    next_room: str | None = Field(description="the room of your next match, once paired")
    waiting: bool = Field(description="arena: you are free and wait for an opponent")
    paused: bool
    absences: int = Field(description="arena: matches in a row you did not come to")
    grace: float = Field(description="how long a match waits for its players, in seconds")
