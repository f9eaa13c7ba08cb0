"""The one adapter between Bidak and the ``bgsage`` engine (Open Sage, MPL-2.0).

bgsage's board is 26 ints from the view of the player on roll: ``b[1..24]`` the mover's points
(mover's checkers positive, opponent's negative), ``b[25]`` the mover's bar and ``b[0]`` the
opponent's bar, both as positive counts. Borne-off checkers are implicit. That is exactly Bidak's
``Position`` laid out in one list, so the conversion is a copy.
"""

from __future__ import annotations

import bgsage

from bidak.rules import Position, Sides


def to_board(position: Position) -> list[int]:
    """bgsage's board for a Bidak position (both from the mover's view)."""
    return [position.bar.opponent, *position.points, position.bar.mover]


def from_board(board: list[int] | tuple[int, ...]) -> Position:
    """The Bidak position of a bgsage board; refuses an impossible board (InvalidPosition)."""
    if len(board) != 26:
        from bidak.errors import InvalidPosition

        raise InvalidPosition(f"a bgsage board has 26 slots, not {len(board)}")
    return Position(tuple(int(n) for n in board[1:25]), Sides(int(board[25]), int(board[0])))


def possible_results(position: Position, dice: tuple[int, int]) -> list[Position]:
    """bgsage's legal results of a roll (mover's view), as Bidak positions.

    bgsage returns an empty list when no move is possible; Bidak's rules return the unchanged
    position as the one "play" then, so this does the same to keep the two comparable.
    """
    boards = bgsage.possible_moves(to_board(position), dice[0], dice[1])
    if not boards:
        return [position]
    return [from_board(board) for board in boards]


class SageReferee:
    """bgsage at 1-ply choosing plays, for engine-played sample games (cubeless money play)."""

    def __init__(self, level: str = "1ply") -> None:
        self._analyzer = bgsage.create_analyzer(level, cubeful=False)

    def best_result(self, position: Position, dice: tuple[int, int]) -> Position:
        """The result of bgsage's best play (mover's view)."""
        ranked = self._analyzer.checker_play(to_board(position), dice[0], dice[1])
        if not ranked.moves:
            return position
        return from_board(ranked.moves[0].board)
