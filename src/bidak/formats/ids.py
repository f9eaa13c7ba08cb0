"""Read whatever ID a player pastes: a Position ID, a ``PositionID:MatchID`` pair or an XGID."""

from __future__ import annotations

from dataclasses import dataclass

from bidak.errors import InvalidId
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
    text = text.strip()
    if not text:
        raise InvalidId("give a Position ID, a PositionID:MatchID pair or an XGID")
    return IdState(Position.from_position_id(text))
