"""Accounts: an e-mail linked by a one-time link, signing in anywhere, sessions, one's own data.

``queries`` holds the transactions (links, addresses, merging a guest, deleting, the export),
``service`` the use cases on the injected clock, ``routes`` the HTTP API. Players and their
sessions, which every capability reads, are :mod:`bidak.server.accounts.player_queries`.
"""

from bidak.server.accounts.deps import AccountServices, PlayerDep, current_player
from bidak.server.accounts.guests import COOKIE, GUEST_TRIES, guest_name
from bidak.server.accounts.names import NameRefused, clean_name, skeleton, taken
from bidak.server.accounts.player_queries import Players, set_puzzle_rating

__all__ = [
    "COOKIE",
    "GUEST_TRIES",
    "AccountServices",
    "NameRefused",
    "PlayerDep",
    "Players",
    "clean_name",
    "current_player",
    "guest_name",
    "set_puzzle_rating",
    "skeleton",
    "taken",
]
