"""The correspondence clock: a per-move allowance in days, and vacation that stops it.

Times are seconds since the epoch (UTC). A vacation is an :class:`Away`, a half-open interval
``[start, end)``; a player's vacations never overlap (:func:`book` refuses one that would).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final

DAY: Final = 86_400.0
DAYS_PER_MOVE: Final = (1, 2, 3, 5, 7)
"""The allowances a room may choose."""
VACATION_DAYS_PER_YEAR: Final = 15
"""The default bank of vacation days a player has each calendar year (a server setting)."""
REMIND_AT: Final = 0.8
"""A player is reminded once 80% of a decision's allowance has passed (as lichess does)."""


class VacationError(ValueError):
    """A vacation that cannot be taken; ``code`` says why (``days``, ``bank``, ``overlap``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Away:
    """A vacation: the player's clocks stop from ``start`` until ``end``."""

    start: float
    end: float

    def __post_init__(self) -> None:
        if not self.end > self.start:
            raise ValueError(f"a vacation ends after it starts, not at {self.end!r}")


def allowance(days: int) -> float:
    """Seconds a decision may take in a room of ``days`` per move.

    >>> allowance(3)
    259200.0
    """
    if days not in DAYS_PER_MOVE:
        raise ValueError(f"days per move is one of {DAYS_PER_MOVE}, not {days!r}")
    return days * DAY


def reminder(deadline_at: float, seconds: float) -> float:
    """When the player is reminded of a decision due at ``deadline_at`` with an allowance of
    ``seconds``: once :data:`REMIND_AT` of it has passed, counted back from the deadline (a
    vacation booked before the deadline moves both).

    >>> reminder(10 * DAY, 5 * DAY) == 9 * DAY
    True
    """
    return deadline_at - (1.0 - REMIND_AT) * seconds


def _merged(aways: Iterable[Away]) -> list[Away]:
    merged: list[Away] = []
    for away in sorted(aways, key=lambda a: a.start):
        if merged and away.start <= merged[-1].end:
            last = merged[-1]
            merged[-1] = Away(last.start, max(last.end, away.end))
        else:
            merged.append(away)
    return merged


def present_time(start: float, end: float, aways: Iterable[Away]) -> float:
    """Seconds between ``start`` and ``end`` the player was not on vacation."""
    if end <= start:
        return 0.0
    gone = sum(max(0.0, min(end, a.end) - max(start, a.start)) for a in _merged(aways))
    return end - start - gone


def deadline(asked: float, seconds: float, aways: Iterable[Away]) -> float:
    """When a decision asked for at ``asked``, with ``seconds`` to take it, runs out: the first
    moment at which the player has been present (not on vacation) for ``seconds`` since.

    >>> deadline(0.0, 10.0, [])
    10.0
    >>> deadline(0.0, 10.0, [Away(5.0, 8.0)])
    13.0
    """
    at, left = asked, seconds
    for away in _merged(aways):
        if away.end <= at:
            continue
        if away.start >= at + left:
            break
        if away.start > at:
            left -= away.start - at
        at = away.end
    return at + left


def away_at(aways: Iterable[Away], now: float) -> Away | None:
    """The vacation ``now`` falls in, if any."""
    for away in aways:
        if away.start <= now < away.end:
            return away
    return None


def _year_bounds(year: int) -> tuple[float, float]:
    start = datetime(year, 1, 1, tzinfo=UTC).timestamp()
    return start, datetime(year + 1, 1, 1, tzinfo=UTC).timestamp()


def used_days(aways: Iterable[Away], year: int) -> float:
    """Vacation days spent in calendar ``year`` (UTC); a vacation over New Year counts in
    each year for the part that falls in it."""
    first, last = _year_bounds(year)
    return sum(max(0.0, min(last, a.end) - max(first, a.start)) for a in aways) / DAY


def remaining_days(aways: Iterable[Away], year: int, bank: int = VACATION_DAYS_PER_YEAR) -> float:
    """Vacation days left in ``year`` out of a bank of ``bank``."""
    return max(0.0, bank - used_days(aways, year))


def book(aways: Sequence[Away], now: float, days: int, bank: int = VACATION_DAYS_PER_YEAR) -> Away:
    """A vacation of ``days`` whole days from ``now``, if the bank allows it in every year it
    touches and the player is not on vacation already; VacationError otherwise."""
    if type(days) is not int or days < 1:
        raise VacationError("days", f"a vacation is at least one whole day, not {days!r}")
    new = Away(now, now + days * DAY)
    if any(a.start < new.end and new.start < a.end for a in aways):
        raise VacationError("overlap", "You are on vacation already")
    years = range(
        datetime.fromtimestamp(new.start, UTC).year, datetime.fromtimestamp(new.end, UTC).year + 1
    )
    for year in years:
        if used_days([*aways, new], year) > bank + 1e-9:
            raise VacationError(
                "bank", f"Only {remaining_days(aways, year, bank):g} vacation days left in {year}"
            )
    return new
