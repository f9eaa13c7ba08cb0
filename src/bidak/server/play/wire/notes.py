"""What the bus carries to the connections that is not a wire message as it is: notes.

The bus (:mod:`bidak.server.shared.bus`) carries two sorts of message. A wire message for everyone
who listens (``rematch`` on a room's channel, ``quick`` on a player's) is published as it is and
forwarded unchanged. A *note* (``kind``: :class:`EventsNote`, :class:`TalkNote`) is turned by
each connection into its own message: the table drawn for its seat, or nothing for a player who
muted the speaker.
"""

from __future__ import annotations

from typing import Any, Literal

from typing_extensions import TypedDict

from bidak.server.play.wire.messages import Phrase
from bidak.server.play.wire.table import Deadline

EventsNote = TypedDict(
    "EventsNote",
    {
        "kind": Literal["events"],
        "room": str,
        "match": str,
        "from": int,
        "events": list[dict[str, Any]],
        "state": dict[str, Any],
        "deadline": Deadline | None,
        "seed": str | None,
        "drawn": int,
    },
)
"""What the rooms service stored: the events (as JSON) from version ``from`` on, and
``state``, the JSON of the state after them; each connection draws its ``events`` message.
``drawn`` (the dice drawn from the match's seed so far) is for the other processes, which take
the match up from the note instead of reading it back from the store; no client is sent it."""


def events_note(
    *,
    room: str,
    match: str,
    first: int,
    events: list[dict[str, Any]],
    state: dict[str, Any],
    deadline: Deadline | None,
    seed: str | None,
    drawn: int,
) -> EventsNote:
    return {
        "kind": "events",
        "room": room,
        "match": match,
        "from": first,
        "events": events,
        "state": state,
        "deadline": deadline,
        "seed": seed,
        "drawn": drawn,
    }


class TalkNote(TypedDict):
    """A phrase said at the room, with who said it (a listener who muted them hears nothing)."""

    kind: Literal["talk"]
    seat: int
    player: str
    phrase: Phrase


def talk_note(seat: int, player: str, phrase: Phrase) -> TalkNote:
    return {"kind": "talk", "seat": seat, "player": player, "phrase": phrase}
