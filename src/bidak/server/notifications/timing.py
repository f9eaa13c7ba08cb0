"""When the daily digest goes out: at a configured hour (UTC) each day, once; pure.

A day's digest is due at ``hour``:00 UTC of that day. A process that was down then sends it
when it comes back, but only within :data:`LATE_SECONDS` of the due time: a server started
at 05:00 does not send yesterday's digest an hour before today's.

    >>> day, due = digest_day(1_800_000_000.0, 7)  # 2027-01-15 08:00 UTC
    >>> day, due == 1_800_000_000.0 - 3600
    ('2027-01-15', True)
    >>> digest_day(1_800_000_000.0, 9)  # 09:00 is to come; yesterday's is 23 hours late
    >>> next_digest(1_800_000_000.0, 9) - 1_800_000_000.0
    3600.0
"""

from __future__ import annotations

import math
from datetime import UTC, datetime

DAY = 86_400.0
HOUR = 3_600.0
LATE_SECONDS = 12 * HOUR
"""How late a day's digest may still go out (a process that was down at the hour)."""


def last_due(now: float, hour: int) -> float:
    """The latest due time at or before ``now``."""
    offset = hour * HOUR
    return math.floor((now - offset) / DAY) * DAY + offset


def next_digest(now: float, hour: int) -> float:
    """The first due time after ``now``."""
    return last_due(now, hour) + DAY


def digest_day(now: float, hour: int, late: float = LATE_SECONDS) -> tuple[str, float] | None:
    """The day (ISO date, UTC) whose digest may go out at ``now``, with its due time; None
    when the last one is more than ``late`` seconds past."""
    due = last_due(now, hour)
    if now - due > late:
        return None
    return datetime.fromtimestamp(due, UTC).date().isoformat(), due
