"""Tournaments' rules: arenas and knockout brackets. Pure: standard library only.

:mod:`.arena` pairs whoever is free by the nearest score and rating (never the same opponent
twice in a row) and scores a win 2 points, 4 on a streak; :mod:`.knockout` seeds a bracket by
rating, gives byes to the best seeds of an incomplete one, advances winners and forfeits the
absent at a round's deadline. The server (``bidak.server.tournaments``) keeps their state in the
database and calls these functions under the tournament's lease; nothing here does I/O.
"""

from bidak.tournament.arena import (
    ArenaEntrant,
    Standing,
    arena_pairs,
    points_for_win,
    record_absence,
    record_result,
    standings,
)
from bidak.tournament.knockout import (
    Bracket,
    Slot,
    advance,
    bracket_size,
    forfeit_absent,
    length_of_round,
    new_bracket,
    places,
    seed_order,
)

__all__ = [
    "ArenaEntrant",
    "Bracket",
    "Slot",
    "Standing",
    "advance",
    "arena_pairs",
    "bracket_size",
    "forfeit_absent",
    "length_of_round",
    "new_bracket",
    "places",
    "points_for_win",
    "record_absence",
    "record_result",
    "seed_order",
    "standings",
]
