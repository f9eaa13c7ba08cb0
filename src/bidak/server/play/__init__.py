"""Playing: rooms (practice, friend, quick match), the matches played at them, the WebSocket.

Other capabilities use :class:`RoomService` (the facade; its docstring says which module holds
what), the vocabulary of :mod:`bidak.server.play.room` and the names exported here. Inside:
the one writer per match (``actor``), bots and auto-play, move clocks (``timeouts``), fair dice,
table talk and rematch, the WebSocket endpoint and protocol, views, sockets, the typed wire
messages (``wire/``), and the rooms' and matches' queries.
"""

from bidak.server.play.deps import PlayDep, PlayServices
from bidak.server.play.dice import all_dice
from bidak.server.play.options import FriendOptions
from bidak.server.play.room import (
    TOURNAMENT_ENDS,
    RoomError,
    RoomKind,
    bot_seat_name,
    is_bot_seat,
    new_room_code,
    seat_of,
)
from bidak.server.play.service import RoomService
from bidak.server.play.wire.messages import (
    QuickMessage,
    quick_left,
    quick_offer,
    quick_paired,
    quick_waiting,
    tournament_changed,
    tournament_paired,
)

__all__ = [
    "TOURNAMENT_ENDS",
    "FriendOptions",
    "PlayDep",
    "PlayServices",
    "QuickMessage",
    "RoomError",
    "RoomKind",
    "RoomService",
    "all_dice",
    "bot_seat_name",
    "is_bot_seat",
    "new_room_code",
    "quick_left",
    "quick_offer",
    "quick_paired",
    "quick_waiting",
    "seat_of",
    "tournament_changed",
    "tournament_paired",
]
