"""HTTP request and response bodies (separate from database rows and core values)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from bidak.server.rooms.options import FriendOptions, PracticeOptions

RoomOptions = Annotated[PracticeOptions | FriendOptions, Field(discriminator="kind")]


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


# -- the engine's advice (bidak.engine.hints, bidak.engine.review_model) ------------------------
# The fields are in the order the engine writes them (the order they are sent); ``extra`` is
# forbidden so that a field the engine adds fails the tests instead of vanishing from answers.


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


class Health(BaseModel):
    status: Literal["ok"]
    version: str
