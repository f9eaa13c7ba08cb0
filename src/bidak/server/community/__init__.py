"""Who plays and how well: player profiles, the leaderboard, and the matches being played now.

Read-only views over ratings (``rated_matches``, written at each rated match's end), reviews
(``reviewed``, written when a finished match is reviewed) and live rooms. A player's e-mail
address is never part of them.
"""

from bidak.server.community.queries import record_review

__all__ = ["record_review"]
