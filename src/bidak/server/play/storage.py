"""The server's one store object, composed from each capability's queries.

:class:`Store` is the rooms' and matches' queries (:class:`bidak.server.play.queries.RoomStore`)
and the players' and sessions' (:class:`bidak.server.accounts.Players`) on one database. It
lives in ``play``, which uses both, so the shared ``store`` package never imports a capability.
"""

from __future__ import annotations

from bidak.server.accounts import Players
from bidak.server.play.queries import RoomStore
from bidak.server.shared.store.db import Database


class Store(RoomStore, Players):
    """The server's store: rooms and matches (:class:`RoomStore`), players and sessions
    (:class:`Players`), every method in one short transaction of its own."""

    def __init__(self, db: Database) -> None:
        RoomStore.__init__(self, db)
        Players.__init__(self, db)
