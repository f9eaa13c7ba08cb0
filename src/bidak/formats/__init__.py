"""Interchange formats (formats.md): gnubg Position and Match IDs, XGID, move notation, ``.mat``.

Standard library and :mod:`bidak.rules` only. Every parser raises a
:class:`~bidak.errors.BidakError` (:class:`~bidak.errors.InvalidId`,
:class:`~bidak.errors.InvalidNotation`, :class:`~bidak.errors.InvalidMatchFile`) with a readable
message.

>>> position, info = parse_gnubg_id("4HPwATDgc/ABMA:cInqAAAAAAAE")
>>> str(Xgid.from_gnubg(position, info))
'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10'
"""

from bidak.formats.gnubgid import format_gnubg_id, parse_gnubg_id
from bidak.formats.mat import read_mat, write_mat
from bidak.formats.mat_records import (
    MatAction,
    MatDouble,
    MatDrop,
    MatGame,
    MatMove,
    MatRecord,
    MatTake,
    MatWin,
)
from bidak.formats.matchid import GameState, MatchInfo
from bidak.formats.notation import (
    format_mat_steps,
    format_steps,
    parse_hops,
    parse_mat_play,
    parse_mat_steps,
    resolve_mat_steps,
)
from bidak.formats.xgid import CubeOffer, Xgid, from_xgid, to_xgid

__all__ = [
    "CubeOffer",
    "GameState",
    "MatAction",
    "MatDouble",
    "MatDrop",
    "MatGame",
    "MatMove",
    "MatRecord",
    "MatTake",
    "MatWin",
    "MatchInfo",
    "Xgid",
    "format_gnubg_id",
    "format_mat_steps",
    "format_steps",
    "from_xgid",
    "parse_gnubg_id",
    "parse_hops",
    "parse_mat_play",
    "parse_mat_steps",
    "read_mat",
    "resolve_mat_steps",
    "to_xgid",
    "write_mat",
]
