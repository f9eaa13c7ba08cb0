"""The options a match is played under (rules.md sections 2, 7, 8 and 9)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

from bidak.errors import InvalidMatchData
from bidak.rules import Variant

MAX_LENGTH: Final = 25
STRIKES_TO_LOSE: Final = 3
"""Under ``THREE_STRIKES`` the third timeout loses the match (rules.md 9)."""


class OpeningRule(Enum):
    """Who starts after the opening roll (rules.md 2). Values are stable: they are stored."""

    HIGHER_STARTS = "higher"
    LOWER_STARTS = "lower"


class TimeoutPolicy(Enum):
    """What a timeout does (rules.md 9). Values are stable: they are stored.

    Under both, the clock's fallback is fixed by :func:`bidak.match.fixed_fallback` (a roll, never a
    double; a rejected resignation) or chosen by a bot (a play, an answer to a double).
    """

    AUTOPLAY = "autoplay"
    """The fallback is played and auto-play takes over the seat until its player takes back
    control (JoyPip)."""
    THREE_STRIKES = "three_strikes"
    """The fallback is played and the timeout is a strike; the third strike of the match loses
    it (JoinPal). A turn gives at most one strike, however many of its decisions time out."""
    FORFEIT = "forfeit"
    """The first timeout loses the match, scored as a forfeit; nothing is played for the
    player (correspondence matches: no auto-play, no three strikes)."""


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The options of a room.

    >>> RuleSet(length=5).cube_in_use
    True
    >>> RuleSet(length=1).cube_in_use
    False
    >>> RuleSet(length=0)
    Traceback (most recent call last):
    ...
    bidak.errors.InvalidMatchData: a match is 1 to 25 points long, not 0
    """

    length: int = 1
    cube: bool = True
    variant: Variant = Variant.STANDARD
    opening: OpeningRule = OpeningRule.HIGHER_STARTS
    timeout_policy: TimeoutPolicy = TimeoutPolicy.AUTOPLAY

    def __post_init__(self) -> None:
        if type(self.length) is not int or not 1 <= self.length <= MAX_LENGTH:
            raise InvalidMatchData(f"a match is 1 to {MAX_LENGTH} points long, not {self.length!r}")
        if type(self.cube) is not bool:
            raise InvalidMatchData(f"cube must be True or False, not {self.cube!r}")
        for value, kind in (
            (self.variant, Variant),
            (self.opening, OpeningRule),
            (self.timeout_policy, TimeoutPolicy),
        ):
            if not isinstance(value, kind):
                raise InvalidMatchData(f"{value!r} is not a {kind.__name__}")

    @property
    def strike_limit(self) -> int | None:
        """The strike that loses the match, or ``None`` where timeouts never do.

        >>> RuleSet(timeout_policy=TimeoutPolicy.THREE_STRIKES).strike_limit
        3
        >>> RuleSet(timeout_policy=TimeoutPolicy.FORFEIT).strike_limit
        1
        >>> RuleSet().strike_limit is None
        True
        """
        if self.timeout_policy is TimeoutPolicy.FORFEIT:
            return 1
        return STRIKES_TO_LOSE if self.timeout_policy is TimeoutPolicy.THREE_STRIKES else None

    @property
    def cube_in_use(self) -> bool:
        """The cube is off in 1-point matches and when the room disables it (rules.md 7)."""
        return self.cube and self.length > 1
