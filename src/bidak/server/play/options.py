"""Room options (rules.md 9): what a player may choose when creating a room, validated."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bidak.correspondence import DAY
from bidak.engine.levels import Level
from bidak.match import OpeningRule, RuleSet, TimeoutPolicy
from bidak.match.ruleset import MAX_LENGTH

LIVE_LENGTHS = (1, 3, 5, 7)


class PracticeOptions(BaseModel):
    """A match against a bot."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["practice"] = "practice"
    length: Literal[1, 3, 5, 7] = 3
    cube: bool = True
    level: Literal["beginner", "normal", "expert"] = "normal"

    def rules(self) -> RuleSet:
        return RuleSet(length=self.length, cube=self.cube)

    @property
    def bot_level(self) -> Level:
        return Level.parse(self.level)


class FriendOptions(BaseModel):
    """A match between two people who share an invite link: live, or correspondence when
    ``days_per_move`` is given (docs/correspondence.md)."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["friend"] = "friend"
    length: int = Field(
        5, ge=1, le=MAX_LENGTH, description="1, 3, 5 or 7; a correspondence match 1 to 25"
    )
    cube: bool = True
    move_seconds: Literal[30, 45, 60, 90] = Field(60, description="time per move, in seconds")
    days_per_move: Literal[1, 2, 3, 5, 7] | None = Field(
        None, description="a correspondence match: days per move (the timeout loses the match)"
    )
    opening: Literal["higher", "lower"] = "higher"
    timeout_policy: Literal["autoplay", "three_strikes"] = "autoplay"
    rated: bool = Field(False, description="the result moves both players' ratings")
    private: bool = Field(False, description="kept out of the list of live games")

    @model_validator(mode="after")
    def _live_lengths(self) -> FriendOptions:
        if self.days_per_move is None and self.length not in LIVE_LENGTHS:
            raise ValueError("a live match is 1, 3, 5 or 7 points long")
        return self

    @property
    def seconds_per_move(self) -> int:
        """The allowance of each decision, in seconds (days for correspondence)."""
        if self.days_per_move is not None:
            return int(self.days_per_move * DAY)
        return self.move_seconds

    def rules(self) -> RuleSet:
        policy = TimeoutPolicy(self.timeout_policy)
        if self.days_per_move is not None:
            policy = TimeoutPolicy.FORFEIT  # no auto-play, no three strikes
        return RuleSet(
            length=self.length,
            cube=self.cube,
            opening=OpeningRule(self.opening),
            timeout_policy=policy,
        )
