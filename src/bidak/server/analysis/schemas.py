"""HTTP bodies of hints and reviews (exact: extra fields are refused)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Exact(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Probabilities(_Exact):
    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float


class CubeContext(_Exact):
    cube: int
    owner: Literal["centred", "mover", "opponent"] = Field(description="seen from the mover")
    away: list[int]
    crawford: bool


class Candidate(_Exact):
    rank: int = Field(description="1: the best play")
    notation: str
    steps: list[tuple[int, int, bool]] = Field(
        description="`[start, end, hit]` in the mover's numbering"
    )
    result: str = Field(description="the Position ID after the play")
    equity: float
    cubeless_equity: float
    loss: float
    probabilities: Probabilities
    level: str


class PlaysAdvice(_Exact):
    kind: Literal["plays"]
    position_id: str
    dice: list[int]
    context: CubeContext
    level: str
    candidates: list[Candidate] = Field(description="every legal play, best first")


class CubeAdvice(_Exact):
    kind: Literal["cube"]
    position_id: str
    context: CubeContext
    level: str
    for_taker: bool = Field(description="true: a double is pending, the question is take/drop")
    available: bool = Field(description="the player on roll may double now")
    no_double: float
    double_take: float
    double_pass: float
    best_equity: float
    should_double: bool
    should_take: bool
    action: Literal["no_double_take", "double_take", "double_pass", "too_good_pass"]
    label: str
    right_action: CubeChoice
    probabilities: Probabilities


class Hint(_Exact):
    version: int = Field(description="the match version the hint is for")
    kind: Literal["PlayHint", "CubeHint"] = Field(
        description="`PlayHint`: the ranked plays of the roll; `CubeHint`: the cube verdict"
    )
    hint: PlaysAdvice | CubeAdvice = Field(discriminator="kind")


Verdict = Literal["ok", "doubtful", "error", "blunder"]
CubeChoice = Literal["double", "no_double", "take", "drop"]


class _Decision(_Exact):
    """What every reviewed decision starts with: its kind, where it was and whose it was."""

    kind: Literal["checker", "cube"]
    game: int
    turn: int
    player: int
    position_id: str
    gnubg_id: str
    xgid: str
    cube: int


class CheckerReview(_Decision):
    kind: Literal["checker"]
    dice: list[int]
    played: str
    best: str
    equity_played: float
    equity_best: float
    loss: float
    verdict: Verdict
    counted: bool
    forced: bool
    choices: int
    luck: float
    opening: bool


class CubeReview(_Decision):
    kind: Literal["cube"]
    played: CubeChoice
    best: CubeChoice
    no_double: float
    double_take: float
    double_pass: float
    loss: float
    verdict: Verdict
    counted: bool
    level: str


class GameReview(_Exact):
    game: int
    score: list[int]
    crawford: bool
    winner: int | None
    points: int
    decisions: list[Annotated[CheckerReview | CubeReview, Field(discriminator="kind")]]


class PlayerTotals(_Exact):
    player: int
    name: str
    pr: float = Field(description="docs/analysis.md")
    checker_pr: float
    cube_pr: float
    decisions: int
    checker_decisions: int
    cube_decisions: int
    equity_lost: float
    doubtful: int
    errors: int
    blunders: int
    luck: float
    rolls: int


class Thresholds(_Exact):
    """What the review's verdicts and PR are measured with (docs/analysis.md)."""

    doubtful: float
    error: float
    blunder: float
    close_cube: float
    screen_cube: float
    pr_scale: float
    luck_level: str
    definition: str = Field(description="the name of the judging definition")


class Review(_Exact):
    match_id: str
    version: int = Field(description="the match version reviewed")
    length: int
    players: list[str]
    level: str
    thresholds: Thresholds
    games: list[GameReview]
    totals: list[PlayerTotals] = Field(description="seat 0 first")


TUTOR_LOSS = 0.08
"""The tutor warns before a play or cube decision that gives up more than this (the review's
blunder band)."""


class TutorAsk(_Exact):
    steps: list[Annotated[list[int], Field(min_length=2, max_length=2)]] | None = Field(
        None, max_length=4, description="the play about to be sent: [start, end] steps, any order"
    )
    cube: Literal["double", "no_double", "take", "drop"] | None = Field(
        None, description="or the cube decision about to be sent (no_double: rolling instead)"
    )


class TutorAdvice(_Exact):
    version: int = Field(description="the match version the advice is for")
    loss: float = Field(description="the equity the choice gives up against the engine's best")
    warn: bool = Field(description=f"true: it gives up more than {TUTOR_LOSS}")
    threshold: float
    best: str = Field(description="the engine's best play, or its cube action (double, take...)")
    level: str
