"""Read whatever ID a player pastes: a Position ID, a ``PositionID:MatchID`` pair or an XGID."""

from __future__ import annotations

from dataclasses import dataclass

from bidak.errors import InvalidId
from bidak.formats.gnubgid import parse_gnubg_id
from bidak.formats.xgid import Xgid
from bidak.rules import Position


@dataclass(frozen=True)
class IdState:
    """A position from the view of the player on roll, with what the ID says about the match."""

    position: Position
    dice: tuple[int, int] | None = None
    cube: int = 1
    cube_owner: str = "centred"  # "centred", "on roll" or "opponent"
    score: tuple[int, int] | None = None  # (player on roll, opponent)
    length: int = 0
    crawford: bool = False

    def describe(self) -> str:
        lines = [str(self.position)]
        cube = f"cube {self.cube} ({self.cube_owner})"
        if self.length:
            score = self.score or (0, 0)
            match = f"{self.length}-point match, score {score[0]}-{score[1]} (X-O)"
            if self.crawford:
                match += ", Crawford game"
        else:
            match = "money game" if self.score is not None else "no match information"
        dice = f"X has rolled {self.dice[0]}-{self.dice[1]}" if self.dice else "X to roll"
        lines.append(f"   {cube}; {match}; {dice}")
        return "\n".join(lines)


def read_any_id(text: str) -> IdState:
    """Read a Position ID, a ``PositionID:MatchID`` pair or an XGID (``XGID=`` optional).

    >>> read_any_id("4HPwATDgc/ABMA:cInqAAAAAAAE").dice
    (5, 2)
    >>> read_any_id("-B-A--A----------------ba-:1:-1:1:63:4:5:0:7:10").score
    (4, 5)
    """
    text = text.strip()
    if not text:
        raise InvalidId("give a Position ID, a PositionID:MatchID pair or an XGID")
    if text.upper().startswith("XGID=") or text.count(":") == 9:
        return _from_xgid(Xgid.parse(text))
    if ":" in text:
        position, info = parse_gnubg_id(text)
        owner = _owner(info.cube_owner, info.on_roll)
        mover = info.on_roll
        return IdState(
            position,
            info.dice,
            info.cube_value,
            owner,
            (info.score[mover], info.score[1 - mover]),
            info.length,
            info.crawford,
        )
    return IdState(Position.from_position_id(text))


def _owner(owner: int | None, mover: int) -> str:
    return "centred" if owner is None else "on roll" if owner == mover else "opponent"


def _from_xgid(xgid: Xgid) -> IdState:
    bottom = xgid.turn == 1
    score = (xgid.bottom_score, xgid.top_score) if bottom else (xgid.top_score, xgid.bottom_score)
    owner = None if xgid.cube_owner == 0 else int(xgid.cube_owner == xgid.turn)
    return IdState(
        xgid.position,
        xgid.dice,
        xgid.cube_value,
        _owner(owner, 1),
        score,
        xgid.length,
        xgid.crawford,
    )
