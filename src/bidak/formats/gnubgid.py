"""GNU Backgammon's combined ID, ``PositionID:MatchID`` (formats.md 1 and 2).

A Position ID lists the side not on roll first and the side on roll second, where "on roll" is the
Match ID's ``fMove`` (:attr:`MatchInfo.on_roll`), even while the opponent is deciding on a double
or a resignation. A Bidak :class:`~bidak.rules.Position` is always seen from the player on roll, so
the pair maps directly: the position is from the view of ``info.on_roll``.

>>> position, info = parse_gnubg_id("4HPwATDgc/ABMA:cAkAAAAAAAAA")
>>> position == Position.initial(), info.on_roll, info.length
(True, 1, 0)
>>> format_gnubg_id(position, info)
'4HPwATDgc/ABMA:cAkAAAAAAAAA'
"""

from __future__ import annotations

from bidak.errors import InvalidId
from bidak.formats.matchid import MatchInfo
from bidak.rules import Position


def parse_gnubg_id(text: str) -> tuple[Position, MatchInfo]:
    """Split and decode ``PositionID:MatchID``; the position is seen by ``info.on_roll``."""
    parts = text.strip().split(":")
    if len(parts) != 2:
        raise InvalidId(f"a GNU Backgammon ID is PositionID:MatchID, not {text!r}")
    position_id, match_id = (part.strip() for part in parts)
    return Position.from_position_id(position_id), MatchInfo.from_match_id(match_id)


def format_gnubg_id(position: Position, info: MatchInfo) -> str:
    """``PositionID:MatchID`` for a position seen by ``info.on_roll``."""
    return f"{position.position_id}:{info.match_id}"
