"""read_any_id: what ``bidak show`` and ``bidak plays`` accept."""

from __future__ import annotations

import pytest

from bidak.errors import InvalidId
from bidak.formats.ids import read_any_id
from bidak.rules import Position


def test_position_id_alone() -> None:
    state = read_any_id(" 4HPwATDgc/ABMA ")
    assert state.position == Position.initial()
    assert (state.dice, state.score, state.length) == (None, None, 0)


def test_gnubg_pair() -> None:
    state = read_any_id("DQAAMBEAAAAAAA:QQnvAFAAIAAE")
    assert state.position == Position.from_counts({1: 2, 3: 1, 6: 1}, {1: 1, 2: 2})
    assert (state.dice, state.cube, state.cube_owner) == ((6, 3), 2, "opponent")
    assert (state.score, state.length, state.crawford) == ((4, 5), 7, False)
    assert "7-point match, score 4-5" in state.describe()


@pytest.mark.parametrize(
    "text",
    [
        "XGID=-B-A--A----------------ba-:1:-1:1:63:4:5:0:7:10",
        "-B-A--A----------------ba-:1:-1:1:63:4:5:0:7:10",
    ],
)
def test_xgid_agrees_with_the_gnubg_pair(text: str) -> None:
    assert read_any_id(text) == read_any_id("DQAAMBEAAAAAAA:QQnvAFAAIAAE")


def test_top_player_on_roll_in_an_xgid() -> None:
    state = read_any_id("XGID=-B-A--A----------------ba-:0:0:-1:00:4:5:1:7:10")
    assert state.position == Position.from_counts({1: 1, 2: 2}, {1: 2, 3: 1, 6: 1})
    assert (state.score, state.crawford, state.cube_owner) == ((5, 4), True, "centred")


@pytest.mark.parametrize("text", ["", "nonsense", "4HPwATDgc/ABMA:", "XGID=--:0"])
def test_bad_ids(text: str) -> None:
    with pytest.raises(InvalidId):
        read_any_id(text)
