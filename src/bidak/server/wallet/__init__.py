"""Coins: the daily check-in, the ledger, the cosmetics shop and what a player has equipped.

``queries`` holds the transactions (each one appends a ledger entry and moves the cached
balance together, or does nothing), ``service`` the use cases on the injected clock, ``routes``
the HTTP API. The rules themselves (rewards, streaks, prices, colours) are the pure
:mod:`bidak.economy`. Matches never touch any of it.
"""

from bidak.server.wallet.queries import append_entry, locked_purse, owned

__all__ = ["append_entry", "locked_purse", "owned"]
