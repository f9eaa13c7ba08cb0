"""Hints and reviews: the engine's advice on the position at a table, and the review of a
finished match, each on a bounded pool of its own (``analyst``); ``routes`` is the HTTP API."""

from bidak.server.analysis.analyst import Analyst, Busy

__all__ = ["Analyst", "Busy"]
