"""The one shape of a request the server refuses: ``code`` for programs, the message for people.

Each capability raises its own subclass (:class:`~bidak.server.play.room.RoomError`,
:class:`~bidak.server.wallet.service.WalletError`) so its routes catch only their own refusals.
"""

from __future__ import annotations


class Refusal(Exception):
    """A refused request: ``code`` is machine-readable, the message is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
