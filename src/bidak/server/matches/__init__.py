"""Matches: the event log, the .mat export and the dice proof of a match, and its rating changes.

``service`` turns a stored match into other forms, ``routes`` is the HTTP API.
"""

from bidak.server.matches.service import mat_text

__all__ = ["mat_text"]
