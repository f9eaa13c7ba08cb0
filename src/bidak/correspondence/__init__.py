"""Correspondence matches: days per move, vacation, deadlines. Pure: standard library only.

A correspondence match gives each decision an allowance of whole days (:data:`DAYS_PER_MOVE`).
A player may take vacation from a bank of days per calendar year (UTC); while they are away
their clocks stop, so a deadline is the moment their *present* time since the decision was
asked for reaches the allowance (:func:`deadline`). Running out of time loses the match
(``bidak.match.TimeoutPolicy.FORFEIT``). Every function takes the time as seconds since the
epoch and does no I/O; ``docs/correspondence.md`` states the rules.
"""

from bidak.correspondence.clock import (
    DAY,
    DAYS_PER_MOVE,
    REMIND_AT,
    VACATION_DAYS_PER_YEAR,
    Away,
    VacationError,
    allowance,
    away_at,
    book,
    deadline,
    present_time,
    remaining_days,
    reminder,
    used_days,
)
from bidak.correspondence.games import Game, waiting_first

__all__ = [
    "DAY",
    "DAYS_PER_MOVE",
    "REMIND_AT",
    "VACATION_DAYS_PER_YEAR",
    "Away",
    "Game",
    "VacationError",
    "allowance",
    "away_at",
    "book",
    "deadline",
    "present_time",
    "remaining_days",
    "reminder",
    "used_days",
    "waiting_first",
]
