"""Coins' pure rules: the site's day, the streak and its rewards, debits, and the shop's colours."""

from __future__ import annotations

import itertools
from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bidak.economy import (
    REWARDS,
    WELCOME_GIFT,
    Insufficient,
    check_in,
    debit,
    next_reward,
    reward,
    site_day,
    streak_now,
)
from bidak.economy.shop import (
    BOARDS,
    CHECKERS,
    DEFAULT_CHECKERS,
    FREE,
    MIN_CONTRAST,
    MIN_TEXT_CONTRAST,
    contrast,
    look_alike,
    readable_on,
    table_checkers,
)


def at(text: str) -> float:
    """Epoch seconds of an ISO time with its offset."""
    return datetime.fromisoformat(text).timestamp()


def test_2359_and_0001_in_jakarta_are_two_days_whatever_the_server_zone() -> None:
    # 23:59 and 00:01 Jakarta time (UTC+7) are 16:59 and 17:01 UTC of the same UTC day.
    before, after = at("2026-12-01T23:59:00+07:00"), at("2026-12-02T00:01:00+07:00")
    assert datetime.fromtimestamp(before, UTC).date() == datetime.fromtimestamp(after, UTC).date()
    assert site_day(before) == date(2026, 12, 1)
    assert site_day(after) == date(2026, 12, 2)
    assert site_day(after, "Europe/Helsinki") == date(2026, 12, 1)


def test_the_reward_table_repeats_after_day_seven() -> None:
    assert [reward(d) for d in range(1, 16)] == [*REWARDS, *REWARDS, REWARDS[0]]
    assert REWARDS == (10, 10, 15, 15, 20, 20, 40)
    with pytest.raises(ValueError):
        reward(0)


def test_consecutive_days_raise_the_streak_and_a_missed_day_resets_it() -> None:
    day = date(2026, 12, 1)
    first = check_in(day, None, 0)
    assert (first.streak, first.coins, first.already) == (1, 10, False)
    last, streak, paid = day, first.streak, [first.coins]
    for offset in range(1, 8):
        today = day + timedelta(days=offset)
        done = check_in(today, last, streak)
        last, streak = today, done.streak
        paid.append(done.coins)
    assert paid == [10, 10, 15, 15, 20, 20, 40, 10]
    assert streak == 8
    missed = check_in(last + timedelta(days=2), last, streak)
    assert (missed.streak, missed.coins) == (1, 10)


def test_a_second_check_in_the_same_day_pays_nothing() -> None:
    day = date(2026, 12, 1)
    again = check_in(day, day, 3)
    assert again.already and again.coins == 0 and again.streak == 3
    assert again.key == check_in(day, day - timedelta(days=1), 2).key


def test_what_the_lobby_shows_next() -> None:
    day = date(2026, 12, 1)
    assert next_reward(day, None, 0) == 10
    assert next_reward(day, day, 6) == 40  # done today: tomorrow is day 7
    assert next_reward(day, day - timedelta(days=1), 6) == 40
    assert next_reward(day, day - timedelta(days=3), 6) == 10
    assert streak_now(day, day - timedelta(days=1), 4) == 4
    assert streak_now(day, day - timedelta(days=2), 4) == 0


def test_a_check_in_before_the_last_one_is_nonsense() -> None:
    with pytest.raises(ValueError):
        check_in(date(2026, 12, 1), date(2026, 12, 2), 1)


@given(st.integers(0, 10_000), st.integers(-20_000, 20_000))
def test_a_debit_never_leaves_a_negative_balance(balance: int, amount: int) -> None:
    if balance + amount < 0:
        with pytest.raises(Insufficient, match=f"costs {-amount} coins and you have {balance}"):
            debit(balance, amount)
    else:
        assert debit(balance, amount) == balance + amount


def test_the_shop_has_six_of_each_beyond_the_free_ones() -> None:
    assert len([b for b in BOARDS if b.id not in FREE]) >= 6
    assert len([c for c in CHECKERS if c.id not in FREE]) >= 6
    assert all(item.price == 0 for item in (*BOARDS, *CHECKERS) if item.id in FREE)
    assert all(item.price > 0 for item in (*BOARDS, *CHECKERS) if item.id not in FREE)
    ids = [item.id for item in (*BOARDS, *CHECKERS)]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("theme", BOARDS, ids=lambda t: t.id)
@pytest.mark.parametrize("checker", CHECKERS, ids=lambda c: c.id)
def test_every_checker_set_is_readable_on_every_board(checker: object, theme: object) -> None:
    from bidak.economy.shop import BoardTheme, CheckerSet

    assert isinstance(checker, CheckerSet) and isinstance(theme, BoardTheme)
    weak = {g: round(c, 2) for g, c in readable_on(checker, theme).items() if c < MIN_CONTRAST}
    assert weak == {}
    assert contrast(checker.text, checker.body) >= MIN_TEXT_CONTRAST


def test_contrast_matches_wcag() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21)
    assert contrast("#777777", "#777777") == pytest.approx(1)
    assert contrast("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)


def test_the_second_seat_falls_back_when_the_two_sets_look_alike() -> None:
    assert [c.id for c in table_checkers(None, None)] == list(DEFAULT_CHECKERS)
    assert [c.id for c in table_checkers("ruby", "gold")] == ["ruby", "gold"]
    # Dark on dark: seat 1 shows ivory instead of its onyx, on every screen.
    assert [c.id for c in table_checkers("ruby", "onyx")] == ["ruby", "ivory"]
    # Light on light: seat 1 shows ebony.
    assert [c.id for c in table_checkers("pearl", "jade")] == ["pearl", "ebony"]
    for a, b in itertools.product(CHECKERS, repeat=2):
        first, second = table_checkers(a.id, b.id)
        assert first == a and not look_alike(first, second)


def test_the_welcome_gift_and_day_one_buy_the_cheapest_look() -> None:
    """A new player can make a first purchase on day 1 (docs/protocol.md, Coins)."""
    prices = [item.price for item in (*BOARDS, *CHECKERS) if item.price]
    assert WELCOME_GIFT + REWARDS[0] >= min(prices)
