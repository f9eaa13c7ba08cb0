"""XGID (formats.md 3): every row of the XGID <-> gnubg ID table, both ways, and bad input."""

from __future__ import annotations

import dataclasses

import pytest

from bidak.errors import InvalidId
from bidak.formats import (
    CubeOffer,
    MatchInfo,
    Xgid,
    format_gnubg_id,
    from_xgid,
    parse_gnubg_id,
    to_xgid,
)
from bidak.rules import Position

TABLE = [
    # start position, money game with Jacoby and beaver, bottom to roll
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10", "4HPwATDgc/ABMA:cAkAAAAAAAAA"),
    # 7-point match, bottom has rolled 52
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10", "4HPwATDgc/ABMA:cInqAAAAAAAE"),
    # bear-off: bottom 1:2 3:1 6:1 rolled 63; top 1:1 2:2 owns the 2-cube; score 4-5
    ("XGID=-B-A--A----------------ba-:1:-1:1:63:4:5:0:7:10", "DQAAMBEAAAAAAA:QQnvAFAAIAAE"),
    # same position, Crawford game
    ("XGID=-B-A--A----------------ba-:0:0:1:00:6:4:1:7:10", "DQAAMBEAAAAAAA:8AngAEAAMAAE"),
    # same position, money game, bottom owns the 4-cube, rolled 11
    ("XGID=-B-A--A----------------ba-:2:1:1:11:0:0:3:0:10", "DQAAMBEAAAAAAA:UokEAAAAAAAA"),
    # bottom is on the bar and has rolled 41
    ("XGID=--a--aE-C---eD---c-e----BA:0:0:1:41:0:0:0:5:10", "4HPwARHgc/AAWA:cAmmAAAAAAAE"),
    # race, cube decision
    ("XGID=---BCCD-B-A--a-a-b-dcca---:0:0:1:00:2:1:0:7:10", "dPdMAgDs7pkAAA:cAngABAAEAAE"),
    # cube offered: bottom has doubled (gnubg reader semantics: T is the doubler)
    ("XGID=-b----E-C---eE---b-d-b--B-:0:0:1:D:0:0:0:7:10", "mGfwATDgc/ABMA:cBHgAAAAAAAE"),
]


@pytest.mark.parametrize(("xgid", "gnubg"), TABLE, ids=[row[1] for row in TABLE])
def test_xgid_to_gnubg(xgid: str, gnubg: str) -> None:
    parsed = Xgid.parse(xgid)
    assert str(parsed) == xgid
    assert format_gnubg_id(*parsed.to_gnubg()) == gnubg


@pytest.mark.parametrize(("xgid", "gnubg"), TABLE, ids=[row[1] for row in TABLE])
def test_gnubg_to_xgid(xgid: str, gnubg: str) -> None:
    assert str(Xgid.from_gnubg(*parse_gnubg_id(gnubg))) == xgid
    assert to_xgid(*parse_gnubg_id(gnubg)) == xgid
    assert format_gnubg_id(*from_xgid(xgid)) == gnubg


def test_fields_of_the_bear_off_row() -> None:
    xgid = Xgid.parse("-B-A--A----------------ba-:1:-1:1:63:4:5:0:7:10")  # no prefix
    assert xgid.position == Position.from_counts({1: 2, 3: 1, 6: 1}, {1: 1, 2: 2})
    assert (xgid.cube_value, xgid.cube_log, xgid.cube_owner) == (2, 1, -1)
    assert (xgid.turn, xgid.dice, xgid.cube_offer) == (1, (6, 3), CubeOffer.NONE)
    assert (xgid.bottom_score, xgid.top_score, xgid.length, xgid.max_cube_log) == (4, 5, 7, 10)
    _, info = xgid.to_gnubg()
    assert (info.score, info.cube_owner, info.on_roll) == ((5, 4), 0, 1)


def test_money_flags() -> None:
    xgid = Xgid.parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10")
    assert (xgid.jacoby, xgid.beaver, xgid.crawford) == (True, True, False)
    plain = Xgid.parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:2:0:10")
    assert (plain.jacoby, plain.beaver) == (False, True)
    assert plain.to_gnubg()[1].match_id == "cAkAAAAAAAAE"  # no Jacoby: bit 66 set
    # gnubg's Match ID has no beaver bit: from_gnubg takes it as an argument (default: allowed).
    no_beaver = Xgid.from_gnubg(*plain.to_gnubg(), beaver=False)
    assert str(no_beaver).endswith(":0:0:0:0:10")


def test_top_player_on_roll() -> None:
    bottom = Xgid.parse("XGID=-B-A--A----------------ba-:1:-1:1:63:4:5:0:7:10")
    top = dataclasses.replace(bottom, turn=-1, position=bottom.position.flipped(), cube_owner=1)
    # The board characters stay the same: they are always from the bottom player's view.
    assert str(top) == "XGID=-B-A--A----------------ba-:1:1:-1:63:4:5:0:7:10"
    assert top.bottom_view == bottom.position
    position, info = top.to_gnubg()
    assert (info.on_roll, info.cube_owner) == (0, 1)
    assert position == Position.from_counts({1: 1, 2: 2}, {1: 2, 3: 1, 6: 1})
    assert Xgid.parse(str(top)) == top
    assert Xgid.from_gnubg(position, info) == top


def test_pending_double_maps_to_gnubg_turn() -> None:
    xgid = Xgid.parse("XGID=-b----E-C---eE---b-d-b--B-:0:0:1:D:0:0:0:7:10")
    assert xgid.cube_offer is CubeOffer.DOUBLED and xgid.dice is None
    _, info = xgid.to_gnubg()
    assert (info.on_roll, info.turn, info.double_offered, info.cube_value) == (1, 0, True, 1)


def test_beaver_states_round_trip_but_have_no_gnubg_id() -> None:
    text = "XGID=-b----E-C---eE---c-e----B-:1:0:1:B:0:0:2:0:10"
    xgid = Xgid.parse(text)
    assert xgid.cube_offer is CubeOffer.BEAVERED
    assert str(xgid) == text
    with pytest.raises(InvalidId, match="beaver"):
        xgid.to_gnubg()


def test_states_an_xgid_cannot_hold() -> None:
    position, info = parse_gnubg_id("4HPwATDgc/ABMA:cCNzADAAAAAE")  # game over (resigned)
    with pytest.raises(InvalidId, match="RESIGNED"):
        Xgid.from_gnubg(position, info)
    resigning = MatchInfo.from_match_id("8CFzACAAAAAE")
    with pytest.raises(InvalidId, match="resignation"):
        Xgid.from_gnubg(position, resigning)


START = "-b----E-C---eE---c-e----B-"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (f"XGID={START}:0:0:1:00:0:0:3:0", "10 fields"),
        (f"XGID={START[:-1]}:0:0:1:00:0:0:3:0:10", "26 characters"),
        (f"XGID={START[:-1]}Z:0:0:1:00:0:0:3:0:10", "'Z'"),
        (f"XGID=B{START[1:]}:0:0:1:00:0:0:3:0:10", "top player's bar"),
        (f"XGID={START[:-1]}b:0:0:1:00:0:0:3:0:10", "bottom player's bar"),
        ("XGID=-b----P-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10", "checkers"),
        (f"XGID={START}:16:0:1:00:0:0:3:0:10", "CV"),
        (f"XGID={START}:x:0:1:00:0:0:3:0:10", "whole number"),
        (f"XGID={START}:0:2:1:00:0:0:3:0:10", "cube owner"),
        (f"XGID={START}:0:0:0:00:0:0:3:0:10", "turn field"),
        (f"XGID={START}:0:0:1:70:0:0:3:0:10", "field D"),
        (f"XGID={START}:0:0:1:X:0:0:3:0:10", "field D"),
        (f"XGID={START}:0:0:1:00:0:0:2:7:10", "CJ is 0 or 1"),
        (f"XGID={START}:0:0:1:00:0:0:4:0:10", "CJ is 0-3"),
        (f"XGID={START}:0:0:1:00:7:0:0:7:10", "already won"),
        (f"XGID={START}:1:0:1:00:6:0:1:7:10", "Crawford"),
        (f"XGID={START}:0:0:1:D:6:0:1:7:10", "Crawford"),
        (f"XGID={START}:1:-1:1:D:0:0:0:7:10", "opponent owns"),
        (f"XGID={START}:0:0:1:B:0:0:0:7:10", "beaver"),
        (f"XGID={START}:0:0:1:00:0:0:3:0:16", "max cube"),
        (f"XGID={START}:0:0:1:00:-1:0:3:0:10", "bottom_score"),
    ],
)
def test_bad_xgids_raise(text: str, message: str) -> None:
    with pytest.raises(InvalidId, match=message):
        Xgid.parse(text)
