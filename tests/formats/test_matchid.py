"""GNU Backgammon Match ID: every vector of formats.md 2, and malformed IDs."""

from __future__ import annotations

import base64
import dataclasses

import pytest

from bidak.errors import InvalidId
from bidak.formats import GameState, MatchInfo

PLAYING = GameState.PLAYING

# (Match ID, the state it holds) for every row of formats.md 2. jacoby=True means bit 66 is
# clear: the ID ends in 'A' instead of 'E'.
VECTORS = [
    # gnubg manual: 9-point match, 2-4, 2-cube owned by player 0, player 1 has rolled 52.
    ("QYkqASAAIAAA", MatchInfo(2, 0, 1, False, PLAYING, 1, False, 0, (5, 2), 9, (2, 4), True)),
    # The same state as current gnubg writes it.
    ("QYkqASAAIAAE", MatchInfo(2, 0, 1, False, PLAYING, 1, False, 0, (5, 2), 9, (2, 4), False)),
    # Money game, centred 1-cube, player 1 to roll, Jacoby on.
    ("cAkAAAAAAAAA", MatchInfo(1, None, 1, False, PLAYING, 1, False, 0, None, 0, (0, 0), True)),
    # 7-point match, 0-0, player 1 has rolled 52.
    ("cInqAAAAAAAE", MatchInfo(1, None, 1, False, PLAYING, 1, False, 0, (5, 2), 7, (0, 0))),
    # Player 1 has doubled: the cube is still 1 and centred, move=1, turn=0, doubled.
    ("cBHgAAAAAAAE", MatchInfo(1, None, 1, False, PLAYING, 0, True, 0, None, 7, (0, 0))),
    # After the take: 2-cube owned by player 0, player 1 has rolled 31.
    ("QYnlAAAAAAAE", MatchInfo(2, 0, 1, False, PLAYING, 1, False, 0, (3, 1), 7, (0, 0))),
    # 7-point match, 4-6, Crawford game, player 1 to roll.
    ("8AngAEAAMAAE", MatchInfo(1, None, 1, True, PLAYING, 1, False, 0, None, 7, (4, 6))),
    # 3-point match, 2-0, Crawford: player 1 rolled 64 and offers a single game (turn=0).
    ("8CFzACAAAAAE", MatchInfo(1, None, 1, True, PLAYING, 0, False, 1, (6, 4), 3, (2, 0))),
    # The resignation was accepted: state 3, score 3-0.
    (
        "cCNzADAAAAAE",
        MatchInfo(1, None, 1, False, GameState.RESIGNED, 0, False, 1, (6, 4), 3, (3, 0)),
    ),
    # Money game, 4-cube owned by player 1, player 1 has rolled 11.
    ("UokEAAAAAAAA", MatchInfo(4, 1, 1, False, PLAYING, 1, False, 0, (1, 1), 0, (0, 0), True)),
    # No game started.
    (
        "MAAAAAAAAAAA",
        MatchInfo(1, None, 0, False, GameState.NOT_STARTED, 0, False, 0, None, 0, (0, 0), True),
    ),
]


@pytest.mark.parametrize(("match_id", "info"), VECTORS, ids=[v[0] for v in VECTORS])
def test_vector_decodes_and_encodes(match_id: str, info: MatchInfo) -> None:
    assert MatchInfo.from_match_id(match_id) == info
    assert info.match_id == match_id


def test_a_and_e_endings_differ_only_in_bit_66() -> None:
    old = MatchInfo.from_match_id("QYkqASAAIAAA")
    new = MatchInfo.from_match_id("QYkqASAAIAAE")
    assert dataclasses.replace(old, jacoby=False) == new
    assert new.match_id.endswith("E") and old.match_id.endswith("A")


def test_bits_67_to_71_are_ignored() -> None:
    # The last character holds bits 64-69: "E" is bit 66; "M", "U", "k" and "8" add bits 67-69.
    for ending in "MUk8":
        assert MatchInfo.from_match_id("cInqAAAAAAA" + ending).match_id == "cInqAAAAAAAE"


def test_cube_log_and_defaults() -> None:
    info = MatchInfo.from_match_id("UokEAAAAAAAA")
    assert (info.cube_value, info.cube_log) == (4, 2)
    assert MatchInfo().match_id == "MAEAAAAAAAAE"  # a money game being played, player 0 to roll


def _key_id(**fields: int) -> str:
    """A Match ID with the given raw fields; the rest as in cInqAAAAAAAE (7-point, 0-0, 52)."""
    offsets = {"cube": 0, "owner": 4, "move": 6, "state": 8, "turn": 11, "doubled": 12}
    offsets |= {"resign": 13, "die1": 15, "die2": 18, "length": 21, "score0": 36, "score1": 51}
    raw = {"owner": 3, "move": 1, "state": 1, "turn": 1, "die1": 5, "die2": 2, "length": 7}
    raw |= fields
    value = sum(v << offsets[k] for k, v in raw.items()) | 1 << 66
    return base64.b64encode(value.to_bytes(9, "little")).decode()


def test_raw_builder_matches_a_vector() -> None:
    assert _key_id() == "cInqAAAAAAAE"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("cInqAAAAAAA", "12 characters, not 11"),
        ("cInqAAAAAAAEA", "12 characters, not 13"),
        ("", "12 characters, not 0"),
        ("cInqAAAAAA*E", "bad base64"),
        ("cInqAAAAAA-E", "bad base64"),
        (_key_id(die1=7), "dice 7-2"),
        (_key_id(die2=0), "dice 5-0"),
        (_key_id(die1=0), "dice 0-2"),
        (_key_id(owner=2), "cube owner 2"),
        (_key_id(state=5), "game state 5"),
        (_key_id(state=7), "game state 7"),
        (_key_id(score0=7), "already won"),
        (_key_id(score0=9, score1=8, state=2), "both players"),
        (_key_id(doubled=1, turn=0, die1=0, die2=0, resign=1), "turn"),
        (_key_id(doubled=1, turn=0), "before rolling"),
        (_key_id(turn=0), "turn"),
        (_key_id(resign=2), "turn"),
        (_key_id(cube=2, owner=0, doubled=1, turn=0, die1=0, die2=0), "opponent owns the cube"),
    ],
)
def test_malformed_ids_raise(text: str, message: str) -> None:
    with pytest.raises(InvalidId, match=message):
        MatchInfo.from_match_id(text)


def test_crawford_in_money_play_is_rejected() -> None:
    text = _key_id(length=0, die1=0, die2=0)
    info = MatchInfo.from_match_id(text)
    assert info.length == 0
    with pytest.raises(InvalidId, match="money game has no Crawford"):
        dataclasses.replace(info, crawford=True)


@pytest.mark.parametrize(
    "fields",
    [
        {"cube_value": 3},
        {"cube_value": 1 << 16},
        {"cube_value": 0},
        {"cube_owner": 2},
        {"on_roll": 2},
        {"turn": -1},
        {"resign_stakes": 4, "turn": 1},
        {"dice": (0, 3)},
        {"dice": (7, 1)},
        {"length": 1 << 15},
        {"score": (-1, 0)},
        {"crawford": True, "cube_value": 2, "length": 5},
        {"double_offered": True, "turn": 1, "cube_owner": 1, "cube_value": 2},
    ],
)
def test_impossible_states_cannot_be_built(fields: dict[str, object]) -> None:
    with pytest.raises(InvalidId):
        MatchInfo(**fields)  # type: ignore[arg-type]


def test_resigning_instead_of_answering_a_double() -> None:
    """gnubg lets the doubled player resign and keeps both flags; the turn goes back."""
    info = MatchInfo(cube_owner=None, on_roll=1, turn=1, double_offered=True, resign_stakes=2)
    assert MatchInfo.from_match_id(info.match_id) == info
