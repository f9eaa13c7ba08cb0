"""Tournaments: arenas and knockouts, run by the site and by players, over the rules of
:mod:`bidak.tournament`.

``queries`` holds the transactions (the lease, the step that records results and plans
matches, joining, pausing, checking in), ``service`` the use cases and the loop every process
runs (exactly one process steps each tournament at a time: the lease holder), ``routes`` the
HTTP API. Matches are played in ordinary rated rooms (:class:`bidak.server.play.RoomService`).
"""

from bidak.server.tournaments.service import Tournaments

__all__ = ["Tournaments"]
