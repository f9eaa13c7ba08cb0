"""Friends (issue 38): follow players and see who of them is online and at which table;
challenge any player to a live or correspondence match with a friend room's options, answered
from the notification centre, the profile or 'Your games'; block a player (no challenge, follow,
table talk or quick match pairing between the two). The rules are :mod:`bidak.challenges`'.

Other capabilities use :class:`Friends` (the app builds it) and the two reads exported here:
:func:`blocked_either` (table talk) and :func:`blocked_pairs` (quick match's seekers, inside
the queue's transaction). The tables live in :mod:`.tables`, on the store's one metadata.
"""

from bidak.server.friends.follow_queries import blocked_either, blocked_pairs
from bidak.server.friends.service import Friends, FriendsError

__all__ = ["Friends", "FriendsError", "blocked_either", "blocked_pairs"]
