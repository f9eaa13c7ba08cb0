"""Repositories: every read and write the server makes, each in one short transaction.

:class:`Store` is all of them on one database, so the server holds one store object: the rooms'
and matches' (:class:`bidak.server.rooms.queries.RoomStore`) and the players' and sessions'
(:class:`bidak.server.store.players.Players`).
"""

from __future__ import annotations

from bidak.server.rooms.queries import RoomStore
from bidak.server.store.players import Players
from bidak.server.store.rows import is_key as is_key
from bidak.server.store.rows import new_id as new_id


class Store(RoomStore, Players):
    """The server's store: rooms and matches (:class:`RoomStore`), players and sessions
    (:class:`Players`), every method in one short transaction of its own."""
