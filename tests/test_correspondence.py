"""The correspondence clock: allowances in days, vacation that stops it, the yearly bank, and
the order of 'Your games' (bidak.correspondence, docs/correspondence.md)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bidak.correspondence import (
    DAY,
    Away,
    Game,
    VacationError,
    allowance,
    book,
    deadline,
    present_time,
    remaining_days,
    used_days,
    waiting_first,
)


def at(year: int, month: int, day: int) -> float:
    return datetime(year, month, day, tzinfo=UTC).timestamp()


def test_the_allowances_are_whole_days_from_the_rooms_choices() -> None:
    assert [allowance(d) / DAY for d in (1, 2, 3, 5, 7)] == [1, 2, 3, 5, 7]
    with pytest.raises(ValueError):
        allowance(4)


def test_without_vacation_the_deadline_is_the_allowance_after_the_decision_was_asked() -> None:
    asked = at(2026, 3, 1)
    assert deadline(asked, allowance(3), []) == asked + 3 * DAY


def test_a_vacation_during_the_move_moves_the_deadline_by_its_length() -> None:
    asked = at(2026, 3, 1)
    away = Away(asked + DAY, asked + 3 * DAY)
    assert deadline(asked, allowance(2), [away]) == asked + 4 * DAY


def test_vacations_before_or_after_the_move_change_nothing() -> None:
    asked = at(2026, 3, 10)
    before, after = Away(at(2026, 3, 1), at(2026, 3, 5)), Away(at(2026, 3, 20), at(2026, 3, 25))
    assert deadline(asked, allowance(2), [before, after]) == asked + 2 * DAY


def test_a_move_asked_for_during_a_vacation_starts_its_clock_when_it_ends() -> None:
    away = Away(at(2026, 3, 1), at(2026, 3, 8))
    assert deadline(at(2026, 3, 3), allowance(1), [away]) == at(2026, 3, 9)


aways = st.lists(
    st.tuples(st.floats(0, 1e7), st.floats(1, 1e6)).map(lambda p: Away(p[0], p[0] + p[1])),
    max_size=5,
)


@given(st.floats(0, 1e7), st.floats(1, 1e6), aways)
def test_at_the_deadline_the_player_was_present_for_exactly_the_allowance(
    asked: float, seconds: float, gone: list[Away]
) -> None:
    due = deadline(asked, seconds, gone)
    assert due >= asked + seconds
    assert present_time(asked, due, gone) == pytest.approx(seconds, rel=1e-9, abs=1e-3)


def test_the_bank_counts_days_in_each_calendar_year() -> None:
    winter = Away(at(2026, 12, 29), at(2027, 1, 3))  # 3 days in 2026, 2 in 2027
    assert used_days([winter], 2026) == 3
    assert used_days([winter], 2027) == 2
    assert remaining_days([winter], 2027, bank=15) == 13


def test_a_vacation_is_booked_from_the_bank_and_not_beyond_it() -> None:
    now = at(2026, 6, 1)
    first = book([], now, 10, bank=15)
    assert (first.start, first.end) == (now, now + 10 * DAY)
    with pytest.raises(VacationError) as refused:
        book([first], now + 20 * DAY, 6, bank=15)
    assert refused.value.code == "bank"
    assert book([first], now + 20 * DAY, 5, bank=15).end == now + 25 * DAY


def test_a_new_year_brings_a_new_bank() -> None:
    spent = [Away(at(2026, 2, 1), at(2026, 2, 16))]
    with pytest.raises(VacationError):
        book(spent, at(2026, 12, 1), 1, bank=15)
    assert book(spent, at(2027, 1, 1), 15, bank=15).end == at(2027, 1, 16)


def test_one_vacation_at_a_time_of_whole_days() -> None:
    now = at(2026, 6, 1)
    first = book([], now, 2)
    with pytest.raises(VacationError) as refused:
        book([first], now + DAY, 1)
    assert refused.value.code == "overlap"
    with pytest.raises(VacationError):
        book([], now, 0)


def test_your_games_waiting_on_you_first_by_time_left() -> None:
    games = [
        Game("A", yours=False, deadline=100.0),
        Game("B", yours=True, deadline=500.0),
        Game("C", yours=True, deadline=200.0),
        Game("D", yours=True, deadline=None),
        Game("E", yours=False, deadline=None),
    ]
    assert [g.room for g in waiting_first(games, now=0.0)] == ["C", "B", "D", "A", "E"]
