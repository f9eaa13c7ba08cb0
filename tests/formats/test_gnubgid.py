"""GNU Backgammon Position ID (formats.md 1) and the combined PositionID:MatchID."""

from __future__ import annotations

import base64

import pytest

from bidak.errors import InvalidId
from bidak.formats import GameState, MatchInfo, format_gnubg_id, parse_gnubg_id
from bidak.rules import Position

OPENING = {6: 5, 8: 3, 13: 5, 24: 2}

# (Position ID, key, not on roll {point: n}, on roll {point: n}, bars (on roll, not)): formats.md 1.
VECTORS = [
    ("4HPwATDgc/ABMA", "e0 73 f0 01 30 e0 73 f0 01 30", OPENING, OPENING, (0, 0)),
    (
        "sGfwATDgc/ABMA",
        "b0 67 f0 01 30 e0 73 f0 01 30",
        {5: 2, 6: 4, 8: 2, 13: 5, 24: 2},
        OPENING,
        (0, 0),
    ),
    (
        "mGfwATDgc/ABMA",
        "98 67 f0 01 30 e0 73 f0 01 30",
        {4: 2, 6: 4, 8: 2, 13: 5, 24: 2},
        OPENING,
        (0, 0),
    ),
    (
        "4HPwARHgc/AAWA",
        "e0 73 f0 01 11 e0 73 f0 00 58",
        {6: 5, 8: 3, 13: 5, 20: 1, 23: 1},
        {6: 5, 8: 3, 13: 4, 24: 2},
        (1, 0),
    ),
    ("DQAAMBEAAAAAAA", "0d 00 00 30 11 00 00 00 00 00", {1: 1, 2: 2}, {1: 2, 3: 1, 6: 1}, (0, 0)),
    (
        "2zYAANi2AQAAAA",
        "db 36 00 00 d8 b6 01 00 00 00",
        dict.fromkeys(range(1, 6), 2),
        dict.fromkeys(range(1, 6), 2),
        (0, 0),
    ),
]


@pytest.mark.parametrize(
    ("position_id", "key", "theirs", "mine", "bars"), VECTORS, ids=[v[0] for v in VECTORS]
)
def test_position_id_vector(
    position_id: str,
    key: str,
    theirs: dict[int, int],
    mine: dict[int, int],
    bars: tuple[int, int],
) -> None:
    position = Position.from_counts(mine, theirs, bars)
    assert position.position_id == position_id
    assert Position.from_position_id(position_id) == position
    assert base64_key(position_id) == bytes.fromhex(key)
    assert position_id[-1] in "AQgw"


def base64_key(position_id: str) -> bytes:
    return base64.b64decode(position_id + "==")


def test_the_manual_example_pair() -> None:
    position, info = parse_gnubg_id("4HPwATDgc/ABMA:cAkAAAAAAAAA")
    assert position == Position.initial()
    assert (info.on_roll, info.length, info.jacoby) == (1, 0, True)
    assert format_gnubg_id(position, info) == "4HPwATDgc/ABMA:cAkAAAAAAAAA"


def test_position_is_seen_by_the_match_ids_player_on_roll() -> None:
    # Captured from gnubg: player 1 doubled after player 0 opened with 42 (8/4 6/4). The Position
    # ID stays with fMove = 1 (the doubler) although player 0 must answer.
    position, info = parse_gnubg_id(" mGfwATDgc/ABMA : cBHgAAAAAAAE ")
    assert (info.on_roll, info.turn, info.double_offered) == (1, 0, True)
    assert position == Position.from_counts(OPENING, {4: 2, 6: 4, 8: 2, 13: 5, 24: 2})


def test_combined_id_of_a_finished_game() -> None:
    position, info = parse_gnubg_id("4HPwATDgc/ABMA:cCNzADAAAAAE")
    assert info.game_state is GameState.RESIGNED
    assert format_gnubg_id(position, info) == "4HPwATDgc/ABMA:cCNzADAAAAAE"
    assert format_gnubg_id(position, MatchInfo()) == "4HPwATDgc/ABMA:MAEAAAAAAAAE"


@pytest.mark.parametrize(
    "text",
    [
        "4HPwATDgc/ABMA",
        "4HPwATDgc/ABMA:cAkAAAAAAAAA:x",
        "4HPwATDgc/ABM:cAkAAAAAAAAA",
        "4HPwATDgc/ABMA:cAkAAAAAAAA",
        "////////////AA:cAkAAAAAAAAA",  # more than 15 checkers
        "4HPwATDgc/AB*A:cAkAAAAAAAAA",
    ],
)
def test_malformed_combined_ids_raise(text: str) -> None:
    with pytest.raises(InvalidId):
        parse_gnubg_id(text)


def test_both_sides_on_one_point_is_rejected() -> None:
    # One checker each on the mover's point 1 (the opponent's 24): key bits 23 zeros then "10"
    # for the opponent's 24, then "10" for the mover's 1.
    bits = "0" * 23 + "10" + "0" + "10"
    key = bytearray(10)
    for k, bit in enumerate(bits):
        if bit == "1":
            key[k // 8] |= 1 << (k % 8)
    text = base64.b64encode(bytes(key)).decode()[:14]
    with pytest.raises(InvalidId, match="both sides"):
        Position.from_position_id(text)
