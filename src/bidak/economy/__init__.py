"""Coins: the daily check-in's reward table and streak, and the rules every ledger entry obeys.

Pure: standard library only (``zoneinfo`` reads the time-zone database). Coins come from a daily
check-in (the first one with a welcome gift; an operator's grant for support cases) and are
spent on cosmetics; matches never give or take coins. A balance is never a counter that code
adds to: it is the sum of the account's ledger entries, and each entry carries an idempotency
key that is unique, so the same request sent twice (a double click, a retry after a lost
answer) is stored once.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

REWARDS: tuple[int, ...] = (10, 10, 15, 15, 20, 20, 40)
"""Coins for day 1, 2, ... 7 of a streak of consecutive daily check-ins; day 8 pays as day 1
again, and so on. A missed day starts the streak again at day 1."""
DEFAULT_ZONE = "Asia/Jakarta"
"""The site's day: a calendar day in the first players' zone (``BIDAK_CHECKIN_TZ``)."""
WELCOME_GIFT = 40
"""Coins an account is given once, with its first check-in: with day 1's reward they buy the
cheapest checker set, so a new player can make a first purchase on day 1."""
MAX_GRANT = 100_000
"""The most an operator may grant or take back in one entry."""


class Reason(enum.StrEnum):
    """Why a balance changed: every ledger entry says one of these."""

    CHECKIN = "checkin"
    PURCHASE = "purchase"
    GRANT = "grant"
    """An operator's correction for a support case (positive or negative), with a note."""
    MERGE = "merge"
    """A guest's balance moving to the account it signed in to (two entries, one each way)."""
    WELCOME = "welcome"
    """The welcome gift (``WELCOME_GIFT``), once per account, with its first check-in."""


class Insufficient(Exception):
    """A debit larger than the balance: refused, nothing is written."""

    def __init__(self, balance: int, amount: int) -> None:
        super().__init__(f"This costs {-amount} coins and you have {balance}")
        self.balance = balance
        self.amount = amount


def reward(streak_day: int) -> int:
    """The coins a check-in pays on day ``streak_day`` (1-based) of a streak."""
    if streak_day < 1:
        raise ValueError(f"a streak starts at day 1 (got {streak_day})")
    return REWARDS[(streak_day - 1) % len(REWARDS)]


def site_day(at: float, zone: str = DEFAULT_ZONE) -> date:
    """The calendar day in the site's zone at the epoch time ``at`` (the server's own zone, UTC
    or other, plays no part)."""
    return datetime.fromtimestamp(at, UTC).astimezone(ZoneInfo(zone)).date()


@dataclass(frozen=True)
class CheckIn:
    """What a check-in on ``day`` does, given the account's previous check-in."""

    day: date
    streak: int
    """The streak's day this check-in counts as (1 after a missed day)."""
    coins: int
    already: bool
    """Whether the account had already checked in that day (then nothing is credited)."""

    @property
    def key(self) -> str:
        """The idempotency key suffix: one credit per account per site day."""
        return f"checkin:{self.day.isoformat()}"


def check_in(today: date, last_day: date | None, last_streak: int) -> CheckIn:
    """The check-in on ``today`` after one on ``last_day`` that counted as ``last_streak``."""
    if last_day is not None and last_day > today:
        raise ValueError(f"the last check-in ({last_day}) is after today ({today})")
    if last_day == today:
        return CheckIn(today, last_streak, 0, already=True)
    streak = last_streak + 1 if last_day == today - timedelta(days=1) else 1
    return CheckIn(today, streak, reward(streak), already=False)


def streak_now(today: date, last_day: date | None, last_streak: int) -> int:
    """The streak an account holds today: its last one if it checked in today or yesterday, or
    0 when a day has been missed."""
    if last_day is not None and today - last_day <= timedelta(days=1):
        return last_streak
    return 0


def next_reward(today: date, last_day: date | None, last_streak: int) -> int:
    """What the next check-in pays: today's if not yet done, else tomorrow's."""
    if last_day == today:
        return reward(last_streak + 1)
    return check_in(today, last_day, last_streak).coins


def debit(balance: int, amount: int) -> int:
    """The balance after adding ``amount`` (negative for a purchase), never below zero."""
    after = balance + amount
    if after < 0:
        raise Insufficient(balance, amount)
    return after
