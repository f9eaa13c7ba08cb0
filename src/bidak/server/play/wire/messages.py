"""Every message the server sends over the WebSocket, and what the bus carries to the senders.

Each message is a ``TypedDict`` whose ``type`` is its wire name, built only by the constructor
below it (keys in the order they are sent). The docstring of a message says when it is sent and
the field descriptions say what a field holds: ``docs/protocol.md`` shows both
(:mod:`bidak.server.app.protocol_doc`).

A wire message for everyone who listens (``rematch`` on a room's channel, ``quick`` on a
player's) goes over the bus as it is and is forwarded unchanged; the other notes the bus carries
are in :mod:`bidak.server.play.wire.notes`.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal, NotRequired, cast

from pydantic import ConfigDict, Field, TypeAdapter, with_config
from typing_extensions import TypedDict

from bidak.server.play.schemas import SeatInfo
from bidak.server.play.wire.table import Deadline, Table

PROTOCOL_VERSION: Final = 1

_STRICT = ConfigDict(extra="forbid")

ErrorCode = Literal[
    "bad_message",
    "too_large",
    "rate_limited",
    "not_joined",
    "not_found",
    "not_seated",
    "not_started",
    "illegal",
    "stale",
    "match_over",
    "busy",
]
ERROR_CODES: Final[dict[ErrorCode, str]] = {
    "bad_message": "not valid JSON, or not a message of this protocol",
    "too_large": "over the size limit (4 KiB by default)",
    "rate_limited": "more than 20 messages a second on average on this connection (bursts of"
    " 40), or more than 30 a second (bursts of 60) from the player over all their connections",
    "not_joined": "an intent before `join`",
    "not_found": "no room with that code",
    "not_seated": "a spectator tried to act",
    "not_started": "a friend room still waits for the second player",
    "illegal": "the rules refuse the action now (the message says why)",
    "stale": "the intent named an older version than the table now has (never for `forfeit`,"
    " `resign` or `autoplay`)",
    "match_over": "the match has ended",
    "busy": (
        "the table was changing too fast, or the database did not answer; nothing of the"
        " intent was stored (or all of it, and its events are on their way): send it again"
    ),
}
"""Every error code and what it means (the table of ``docs/protocol.md``)."""

Phrase = Literal[
    "hello", "good_luck", "nice_roll", "well_played", "thanks", "oops", "sorry", "good_game"
]
"""The phrases of table talk (:mod:`bidak.server.play.talk`), sent by id."""


@with_config(_STRICT)
class EventItem(TypedDict):
    version: int
    event: Annotated[dict[str, Any], Field(description="an event of the match log")]


@with_config(_STRICT)
class Seat(TypedDict):
    """A seat as :class:`~bidak.server.play.schemas.SeatInfo` describes it."""

    name: str | None
    id: str | None
    bot: str | None
    you: bool
    checkers: str


def seat(info: SeatInfo) -> Seat:
    return {
        "name": info.name,
        "id": info.id,
        "bot": info.bot,
        "you": info.you,
        "checkers": info.checkers,
    }


# -- the messages ---------------------------------------------------------------------------------


@with_config(_STRICT)
class SnapshotHead(TypedDict):
    type: Literal["snapshot"]
    protocol: int
    room: str
    kind: Annotated[str, Field(description="`practice`, `friend` or `quick`")]
    seat: Annotated[int | None, Field(description="0, 1 or null")]
    seats: Annotated[
        list[Seat],
        Field(
            description="each seat's `name`, account `id`, `bot` level, `you` and `checkers`:"
            " the checker set the seat shows on every screen, see Coins"
        ),
    ]
    move_seconds: int | None
    match: str | None
    version: int
    deadline: Deadline | None
    seed_hash: str | None
    seed: Annotated[str | None, Field(description="after the end")]
    now: float
    missed: NotRequired[Annotated[list[EventItem], Field(description="the events after `since`")]]


@with_config(_STRICT)
class SnapshotMessage(SnapshotHead):
    """After `join`, and when a match starts at the room."""

    table: Annotated[Table | None, Field(description="see below; null before the match starts")]


def snapshot_head(
    *,
    room: str,
    kind: str,
    seat: int | None,
    seats: list[Seat],
    move_seconds: int | None,
    match: str,
    version: int,
    deadline: Deadline | None,
    seed_hash: str,
    seed: str | None,
    now: float,
    missed: list[EventItem] | None,
) -> SnapshotHead:
    """A snapshot of a room with a match, but its table (sent as the text the views keep)."""
    head: SnapshotHead = {
        "type": "snapshot",
        "protocol": PROTOCOL_VERSION,
        "room": room,
        "kind": kind,
        "seat": seat,
        "seats": seats,
        "move_seconds": move_seconds,
        "match": match,
        "version": version,
        "deadline": deadline,
        "seed_hash": seed_hash,
        "seed": seed,
        "now": now,
    }
    if missed is not None:
        head["missed"] = missed
    return head


def waiting_snapshot(
    *,
    room: str,
    kind: str,
    seat: int | None,
    seats: list[Seat],
    move_seconds: int | None,
    now: float,
) -> SnapshotMessage:
    """The snapshot of a room whose match has not started (a friend room waiting)."""
    return {
        "type": "snapshot",
        "protocol": PROTOCOL_VERSION,
        "room": room,
        "kind": kind,
        "seat": seat,
        "seats": seats,
        "move_seconds": move_seconds,
        "match": None,
        "version": 0,
        "table": None,
        "deadline": None,
        "seed_hash": None,
        "seed": None,
        "now": now,
    }


@with_config(_STRICT)
class EventsHead(TypedDict):
    type: Literal["events"]
    room: str
    match: str
    version: Annotated[int, Field(description="of the last event")]
    events: Annotated[list[EventItem], Field(description="`[{version, event}]`")]
    deadline: Deadline | None
    seed: str | None
    now: float


@with_config(_STRICT)
class EventsMessage(EventsHead):
    """After every accepted change at the room."""

    table: Annotated[Table, Field(description="see below")]


def events_head(
    *,
    room: str,
    match: str,
    version: int,
    events: list[EventItem],
    deadline: Deadline | None,
    seed: str | None,
    now: float,
) -> EventsHead:
    """An ``events`` message but its table (the views add the text they keep)."""
    return {
        "type": "events",
        "room": room,
        "match": match,
        "version": version,
        "events": events,
        "deadline": deadline,
        "seed": seed,
        "now": now,
    }


@with_config(_STRICT)
class ErrorMessage(TypedDict):
    """An intent or message was refused; the connection stays open."""

    type: Literal["error"]
    code: Annotated[ErrorCode, Field(description="see Error codes")]
    message: Annotated[str, Field(description="readable")]
    room: str | None


def error(code: ErrorCode, message: str, room: str | None = None) -> ErrorMessage:
    return {"type": "error", "code": code, "message": message, "room": room}


def refusal(code: str, message: str, room: str | None = None) -> ErrorMessage:
    """The error for a refusal of the rooms service (a ``RoomError``): its codes on the
    WebSocket's path are among :data:`ERROR_CODES` (the tests check every message sent)."""
    return error(cast(ErrorCode, code), message, room)


@with_config(_STRICT)
class PongMessage(TypedDict):
    """Answer to `ping`."""

    type: Literal["pong"]
    now: float


def pong(now: float) -> PongMessage:
    return {"type": "pong", "now": now}


@with_config(_STRICT)
class QuickWaiting(TypedDict):
    type: Literal["quick"]
    state: Literal["waiting"]
    since: float


@with_config(_STRICT)
class QuickPaired(TypedDict):
    type: Literal["quick"]
    state: Literal["paired"]
    room: str


@with_config(_STRICT)
class QuickOffer(TypedDict):
    type: Literal["quick"]
    state: Literal["offer"]
    level: Annotated[str, Field(description="the bot level offered")]


@with_config(_STRICT)
class QuickLeft(TypedDict):
    type: Literal["quick"]
    state: Literal["left"]


QuickMessage = Annotated[
    QuickWaiting | QuickPaired | QuickOffer | QuickLeft, Field(discriminator="state")
]


def quick_waiting(since: float) -> QuickWaiting:
    return {"type": "quick", "state": "waiting", "since": since}


def quick_paired(room: str) -> QuickPaired:
    return {"type": "quick", "state": "paired", "room": room}


def quick_offer(level: str) -> QuickOffer:
    return {"type": "quick", "state": "offer", "level": level}


def quick_left() -> QuickLeft:
    return {"type": "quick", "state": "left"}


@with_config(_STRICT)
class RematchOffered(TypedDict):
    type: Literal["rematch"]
    state: Literal["offered"]
    by: Annotated[int, Field(description="the seat that offered")]
    until: Annotated[float, Field(description="when the offer runs out, server time")]


@with_config(_STRICT)
class RematchAccepted(TypedDict):
    type: Literal["rematch"]
    state: Literal["accepted"]
    room: Annotated[str, Field(description="the rematch's room")]


RematchMessage = Annotated[RematchOffered | RematchAccepted, Field(discriminator="state")]


def rematch_offered(by: int, until: float) -> RematchOffered:
    return {"type": "rematch", "state": "offered", "by": by, "until": until}


def rematch_accepted(room: str) -> RematchAccepted:
    return {"type": "rematch", "state": "accepted", "room": room}


@with_config(_STRICT)
class TalkMessage(TypedDict):
    """A player's phrase; never from a player the viewer muted (from their next join on)."""

    type: Literal["talk"]
    seat: int
    phrase: Phrase


def talk(seat: int, phrase: Phrase) -> TalkMessage:
    return {"type": "talk", "seat": seat, "phrase": phrase}


ServerMessage: TypeAdapter[Any] = TypeAdapter(
    Annotated[
        SnapshotMessage
        | EventsMessage
        | ErrorMessage
        | PongMessage
        | QuickMessage
        | RematchMessage
        | TalkMessage,
        Field(discriminator="type"),
    ]
)
"""Every server-to-client message, for the tests (``ServerMessage.validate_python``) and the
docs; nothing on the broadcast path validates."""

SERVER_MESSAGES: Final[tuple[tuple[str, Any, str | None], ...]] = (
    ("snapshot", SnapshotMessage, None),
    ("events", EventsMessage, None),
    ("error", ErrorMessage, None),
    ("pong", PongMessage, None),
    (
        "quick",
        QuickMessage,
        "Quick match updates for this player, on every socket of theirs, joined to a room or"
        " not, on any process.",
    ),
    (
        "rematch",
        RematchMessage,
        "At a finished room: a rematch offer, and the new room once accepted.",
    ),
    ("talk", TalkMessage, None),
)
"""Each wire name, its message (or union of messages by ``state``) and, for a union, when it
is sent (a message's docstring says it otherwise), in the docs' order."""
