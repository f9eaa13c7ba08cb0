"""The engine's view of a match state: cube, ownership, away scores and Crawford.

Everything is from the view of one player (usually the one on roll, who decides).
"""

from __future__ import annotations

from bidak.engine.sage import Context, CubeOwner
from bidak.match import MatchState, Player


def context_for(state: MatchState, player: Player, *, cube: int | None = None) -> Context:
    """The engine context of ``player`` in ``state``; ``cube`` overrides the cube value.

    A 1-point match, or a room with the cube off, is played as a match at the score with the
    cube dead; the Crawford flag also covers rooms whose cube is disabled, so the engine never
    counts on a cube that cannot be turned.
    """
    owner = state.cube_owner
    if owner is None:
        relative = CubeOwner.CENTRED
    elif owner is player:
        relative = CubeOwner.MOVER
    else:
        relative = CubeOwner.OPPONENT
    away = (state.away(player), state.away(player.opponent))
    crawford = state.crawford or not state.rules.cube_in_use
    return Context(cube or state.cube, relative, away, crawford)
