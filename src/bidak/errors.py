"""The one error tree of Bidak.

Every error a player or a caller can cause is a ``BidakError`` (a ``ValueError``) whose message a
player could read. Where a position is involved, the message names its Position ID.
"""

from __future__ import annotations


class BidakError(ValueError):
    """Base class of every error Bidak raises on bad input."""


class InvalidPosition(BidakError):
    """A position that cannot occur: wrong checker counts, both sides on one point, ..."""


class InvalidId(BidakError):
    """A malformed Position ID, Match ID or XGID."""


class InvalidNotation(BidakError):
    """Text that is not a play in standard notation."""


class IllegalPlay(BidakError):
    """A play that the rules do not allow for this position and roll."""


class AmbiguousPlay(BidakError):
    """Notation that matches more than one legal play."""


class InvalidDice(BidakError):
    """Dice outside 1..6, or not a pair."""


class IllegalAction(BidakError):
    """A match action that is not allowed now (out of turn, cube not available, ...)."""


class InvalidMatchFile(BidakError):
    """A .mat file that cannot be read."""


class InvalidMatchData(BidakError):
    """A rule set, state or event that is malformed (bad JSON, a value out of range, ...).

    An event log that does not fit the state it is applied to raises this too.
    """
