"""HTTP bodies of training: the lobby's figures, a drill card, an answer and its verdict."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

_EXACT = ConfigDict(extra="forbid")


class TrainingOut(BaseModel):
    due: int = Field(description="cards due now (what the drill would show)")
    cards: int = Field(description="all the player's cards")
    streak: int = Field(description="days in a row, to today or yesterday, with a drill answered")


class DrillPlay(BaseModel):
    steps: list[list[int | bool]] = Field(description="[start, end, hit], the mover's numbering")
    notation: str
    result: str = Field(description="the Position ID the play reaches: what an answer names")


class DrillCard(BaseModel):
    id: int
    kind: Literal["checker", "cube"]
    seat: int = Field(description="the seat the player had: the board is drawn from its side")
    xgid: str
    phase: str
    theme: str
    match_id: str
    dice: list[int] | None = None
    legal_plays: list[DrillPlay] | None = None
    decider: Literal["doubler", "taker"] | None = None


class DrillOut(BaseModel):
    card: DrillCard | None = Field(description="the card due longest ago; null: none is due")
    summary: TrainingOut


class AnswerIn(BaseModel):
    model_config = _EXACT

    type: Literal["play", "cube"]
    result: str | None = Field(None, description="a play: the Position ID it reaches")
    choice: Literal["double", "no_double", "take", "drop"] | None = None


class VerdictOut(BaseModel):
    loss: float = Field(description="the equity the answer gave up (EMG, normalised to the cube)")
    grade: Literal["again", "hard", "good", "easy"]
    best: str = Field(description="the engine's choice")
    played: str = Field(description="what was played in the match")
    due: float = Field(description="when the card comes back (seconds since the epoch)")
    due_in: float = Field(description="how long until the card comes back (seconds)")
    summary: TrainingOut


class PuzzleSummaryOut(BaseModel):
    rating: float = Field(description="the solver's Glicko-2 puzzle rating")
    deviation: float = Field(description="its deviation (350 for a newcomer)")
    answered: int
    right: int
    shared: bool = Field(description="the player's banked positions may become puzzles")
    themes: dict[str, int] = Field(description="puzzles left for the solver, by theme")


class PuzzleOut(BaseModel):
    id: int
    kind: Literal["checker", "cube"]
    seat: int = Field(description="the side the board is drawn from (the decider's)")
    xgid: str
    phase: str
    theme: str
    rating: int = Field(description="the puzzle's Glicko-2 rating, rounded")
    dice: list[int] | None = None
    legal_plays: list[DrillPlay] | None = None
    decider: Literal["doubler", "taker"] | None = None


class NextPuzzleOut(BaseModel):
    puzzle: PuzzleOut | None = Field(description="null: none left (in that theme)")
    summary: PuzzleSummaryOut


class PuzzleVerdictOut(BaseModel):
    puzzle_id: int
    right: bool = Field(description="the best choice, or within PUZZLE_RIGHT of it")
    loss: float = Field(description="the equity the answer gave up (EMG, normalised to the cube)")
    best: str = Field(description="the engine's choice")
    rating_before: float
    rating: float = Field(description="the solver's puzzle rating after the answer")
    puzzle_rating_before: float
    puzzle_rating: float
    repeated: bool = Field(description="true: this puzzle was answered before; nothing moved")


class SharingIn(BaseModel):
    model_config = _EXACT

    shared: bool
