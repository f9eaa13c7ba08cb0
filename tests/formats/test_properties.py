"""Round trips over thousands of random positions and states (hypothesis)."""

from __future__ import annotations

import base64
import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from bidak.errors import InvalidId
from bidak.formats import (
    CubeOffer,
    MatchInfo,
    Xgid,
    format_gnubg_id,
    parse_gnubg_id,
)
from bidak.rules import CHECKERS, Position
from tests.formats.strategies import match_infos, positions, xgids


@settings(max_examples=3000, deadline=None)
@given(positions())
def test_position_id_round_trip(position: Position) -> None:
    position_id = position.position_id
    assert len(position_id) == 14 and position_id[-1] in "AQgw"
    assert Position.from_position_id(position_id) == position
    # Both sides read from the other player's view give the same checkers, swapped.
    flipped = Position.from_position_id(position.flipped().position_id)
    assert flipped.flipped() == position
    assert max(position.off) <= CHECKERS


@settings(max_examples=2000, deadline=None)
@given(match_infos())
def test_match_id_round_trip(info: MatchInfo) -> None:
    match_id = info.match_id
    assert len(match_id) == 12
    assert match_id[-1] in "ABCDEFGH"  # bits 67-69 are never set
    assert (match_id[-1] in "EFGH") != info.jacoby  # bit 66
    assert MatchInfo.from_match_id(match_id) == info


@settings(max_examples=2000, deadline=None)
@given(st.integers(0, (1 << 67) - 1))
def test_every_match_id_decodes_exactly_or_is_rejected(value: int) -> None:
    """Any 67-bit key either is refused with InvalidId or re-encodes to the same characters."""
    text = base64.b64encode(value.to_bytes(9, "little")).decode()
    try:
        info = MatchInfo.from_match_id(text)
    except InvalidId:
        return
    assert info.match_id == text


@settings(max_examples=1500, deadline=None)
@given(xgids())
def test_xgid_round_trip(xgid: Xgid) -> None:
    text = str(xgid)
    assert Xgid.parse(text) == xgid
    assert Xgid.parse(text.removeprefix("XGID=")) == xgid
    if xgid.cube_offer in (CubeOffer.BEAVERED, CubeOffer.RACCOONED):
        return
    position, info = xgid.to_gnubg()
    again = Xgid.from_gnubg(
        *parse_gnubg_id(format_gnubg_id(position, info)),
        beaver=xgid.beaver or bool(xgid.length),
        max_cube_log=xgid.max_cube_log,
    )
    assert again == xgid


@settings(max_examples=1000, deadline=None)
@given(positions(), match_infos(playing_only=True))
def test_gnubg_id_through_xgid(position: Position, info: MatchInfo) -> None:
    """A gnubg state that an XGID can hold survives the trip through the XGID."""
    if info.resign_stakes:  # an XGID has no pending resignation
        return
    xgid = Xgid.parse(str(Xgid.from_gnubg(position, info)))
    back_position, back_info = xgid.to_gnubg()
    assert back_position == position
    expected = dataclasses.replace(info, jacoby=info.jacoby and info.length == 0)
    assert back_info == expected
