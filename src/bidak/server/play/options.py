"""Room options (rules.md 9): what a player may choose when creating a room, validated."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from bidak.engine.levels import Level
from bidak.match import OpeningRule, RuleSet, TimeoutPolicy


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
    """A match between two people who share an invite link."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["friend"] = "friend"
    length: Literal[1, 3, 5, 7] = 5
    cube: bool = True
    move_seconds: Literal[30, 45, 60, 90] = Field(60, description="time per move, in seconds")
    opening: Literal["higher", "lower"] = "higher"
    timeout_policy: Literal["autoplay", "three_strikes"] = "autoplay"
    rated: bool = Field(False, description="the result moves both players' ratings")
    private: bool = Field(False, description="kept out of the list of live games")

    def rules(self) -> RuleSet:
        return RuleSet(
            length=self.length,
            cube=self.cube,
            opening=OpeningRule(self.opening),
            timeout_policy=TimeoutPolicy(self.timeout_policy),
        )
