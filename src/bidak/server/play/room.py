"""What a room is, as the rest of the server sees it: its kind, its immutable value, its seats.

:class:`Room` is a frozen value built from the stored row (:func:`bidak.server.play.queries.
room_value`); nothing changes it in place: a changed room is a new value
(:func:`dataclasses.replace`). The bot's seat and its name are decided here and nowhere else.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from bidak.match import Player
from bidak.server.shared.refusal import Refusal


class RoomKind(StrEnum):
    """The kinds of room; the database stores these strings."""

    PRACTICE = "practice"
    """A person against a bot (the bot in seat 1)."""
    FRIEND = "friend"
    """Two people: the creator and whoever opens the invite link first."""
    QUICK = "quick"
    """Two people quick match paired; always rated."""
    TOURNAMENT = "tournament"
    """Two people a tournament paired (``bidak.server.tournaments``); always rated, no rematch."""


class RoomError(Refusal):
    """A room request the server refuses (see :class:`Refusal`)."""


@dataclass(frozen=True)
class Room:
    """A table as stored: its kind, seats, options and (once started) its match."""

    code: str
    kind: RoomKind
    created_at: datetime
    creator_id: str
    seat0_id: str | None
    seat1_id: str | None
    bot_level: str | None
    move_seconds: int | None
    rules: Mapping[str, Any]
    """The rule set as JSON (:func:`bidak.match.rules_from_json` reads it)."""
    match_id: str | None
    rated: bool
    private: bool
    days_per_move: int | None = None
    """A correspondence room's allowance in days (``move_seconds`` holds it in seconds)."""

    @property
    def correspondence(self) -> bool:
        return self.days_per_move is not None


TOURNAMENT_ENDS = "bidak:tournament-ends"
"""Where every process hears that a tournament room's match ended (``{"room": code}``), so the
process running that tournament steps it now rather than at its next tick."""


def room_channel(code: str) -> str:
    return f"bidak:room:{code}"


CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
"""The room codes' letters: no 0/O, 1/I/L or U/V-like pairs to confuse when read out."""
CODE_LENGTH = 8
"""30**8 (about 6.6e11, 39 bits): with unknown codes limited per address (rooms/lookups.py), a
guesser at the limit finds one of 10,000 open rooms about once in 12 years."""


def new_room_code() -> str:
    """An invite code short enough to read out to a friend: 8 of ``CODE_ALPHABET``, drawn by
    ``secrets``. Rooms made before kept their 22-character codes, which still work."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def canonical_code(code: str) -> str:
    """The code as stored: a short code in capitals whatever case was typed (older 22-character
    codes are case-sensitive and stay as they are)."""
    text = code.strip()
    return text.upper() if len(text) <= CODE_LENGTH else text


def seat_of(room: Room, player_id: str) -> Player | None:
    if room.seat0_id == player_id:
        return Player.ZERO
    if room.seat1_id == player_id:
        return Player.ONE
    return None


def player_at(room: Room, seat: Player) -> str | None:
    """The id of the player in ``seat`` (None: an empty seat, or a bot's)."""
    return room.seat0_id if seat is Player.ZERO else room.seat1_id


def is_bot_seat(room: Room, player: Player) -> bool:
    """Whether a bot plays ``player``'s checkers in ``room`` (seat 1 of a practice room)."""
    return room.kind is RoomKind.PRACTICE and player is Player.ONE


def bot_seat_name(level: str | None) -> str:
    """The name the bot's seat is shown with, e.g. "Bot (expert)"."""
    return f"Bot ({level})"
