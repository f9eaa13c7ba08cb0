"""Quick match: a queue in the database, paired by the pure rule of :mod:`bidak.pairing`.

``queries`` holds the transactions on the queue, ``service`` the use cases (join, leave, pair,
offer a bot), ``routes`` the HTTP API. Every process may pair: a pair is taken out of the queue
by one compare-and-delete of both entries, so two processes that computed the same (or crossing)
pairs start each match once.
"""

from bidak.server.matchmaking.guest_queries import leave_queue

__all__ = ["leave_queue"]
