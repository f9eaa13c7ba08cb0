"""The table as one seat sees it (``table`` in ``snapshot`` and ``events``), and the clock.

Built by :func:`bidak.server.play.protocol.match_view`; the descriptions are the rows of the table
of fields in ``docs/protocol.md``.
"""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired

from pydantic import ConfigDict, Field, with_config
from typing_extensions import TypedDict

_STRICT = ConfigDict(extra="forbid")

Phase = Literal["opening", "roll", "move", "doubled", "resign_offered", "match_over"]
IntentType = Literal[
    "roll",
    "double",
    "take",
    "drop",
    "play",
    "resign",
    "accept_resign",
    "reject_resign",
    "forfeit",
    "autoplay",
]
"""The action types a client may send (``intent.action.type``)."""

WireStep = list[int]
"""A step ``[start, end]`` or, sent by the server, ``[start, end, hit]`` (hit: true or false)."""


@with_config(_STRICT)
class Cube(TypedDict):
    value: int
    owner: Annotated[int | None, Field(description="seat, or null")]
    offered: Annotated[int | None, Field(description="value of a pending double, or null")]
    in_use: bool


@with_config(_STRICT)
class ResignOffer(TypedDict):
    level: int
    by: int | None


@with_config(_STRICT)
class LegalPlay(TypedDict):
    steps: list[WireStep]
    notation: str
    alternatives: NotRequired[
        Annotated[
            list[list[WireStep]],
            Field(description="every other order of steps that reaches the same position"),
        ]
    ]


@with_config(_STRICT)
class Table(TypedDict):
    """The whole table as the receiving seat sees it (a spectator sees seat 0's side)."""

    phase: Phase
    game: Annotated[int, Field(description="the game's number in the match, from 1")]
    turn: Annotated[int | None, Field(description="the seat on roll")]
    viewer: Annotated[int, Field(description="the seat this table is drawn for")]
    points: Annotated[
        list[int],
        Field(
            description="24 numbers, `points[i]` is the viewer's point `i + 1`: positive ="
            " viewer's checkers, negative = opponent's"
        ),
    ]
    bar: Annotated[list[int], Field(description="`[viewer's, opponent's]` checkers on the bar")]
    off: Annotated[list[int], Field(description="`[viewer's, opponent's]` checkers borne off")]
    pips: Annotated[list[int], Field(description="`[viewer's, opponent's]` pip counts")]
    dice: Annotated[list[int] | None, Field(description="the roll being played, or null")]
    cube: Annotated[
        Cube,
        Field(
            description="`{value, owner, offered, in_use}`: `owner` is a seat or null,"
            " `offered` the value of a pending double or null"
        ),
    ]
    score: Annotated[list[int], Field(description="score by seat")]
    length: Annotated[int, Field(description="match length")]
    crawford: Annotated[bool, Field(description="this is the Crawford game")]
    post_crawford: Annotated[bool, Field(description="the Crawford game has been played")]
    resign: Annotated[
        ResignOffer | None, Field(description="`{level, by}` while a resignation is offered")
    ]
    autoplay: Annotated[list[bool], Field(description="per seat: auto-play on")]
    strikes: Annotated[
        list[int],
        Field(description="per seat: timeouts counted so far in the match (at most one a turn)"),
    ]
    strike_limit: Annotated[
        int | None,
        Field(
            description="`3` in a `three_strikes` room (the strike that loses the match),"
            " `null` in other rooms"
        ),
    ]
    winner: Annotated[int | None, Field(description="the seat that won the match")]
    legal_plays: Annotated[
        list[LegalPlay],
        Field(
            description="only for the seat that must play: `[{steps: [[start, end, hit], ...],"
            " notation}]`, with `alternatives` (every other order of the steps) when there are"
            " several"
        ),
    ]
    allowed: Annotated[
        list[IntentType],
        Field(
            description="the action types (as in `intent.action.type`) the receiving seat may"
            " send now"
        ),
    ]


@with_config(_STRICT)
class Deadline(TypedDict):
    """While a person's decision runs against the clock."""

    player: Annotated[int | None, Field(description="the seat whose decision it is")]
    at: Annotated[float, Field(description="the server's epoch seconds")]
    seconds: Annotated[int | None, Field(description="the room's `move_seconds`")]
