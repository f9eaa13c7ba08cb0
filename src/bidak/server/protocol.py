"""The WebSocket protocol: client messages (validated) and the server's snapshot.

Documented with examples in ``docs/protocol.md``. Version 1. Every server message about a match
carries the room code and the match version (the number of events so far), so a reconnecting
client says what it saw last and gets exactly what it missed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from bidak.match import (
    AcceptResign,
    Action,
    Double,
    Drop,
    ForfeitMatch,
    MatchState,
    Move,
    Player,
    RejectResign,
    ResignGame,
    Roll,
    SetAutoplay,
    Take,
    allowed_actions,
    current_plays,
)
from bidak.rules import Play

PROTOCOL_VERSION = 1


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RollBody(_Strict):
    type: Literal["roll"]


class DoubleBody(_Strict):
    type: Literal["double"]


class TakeBody(_Strict):
    type: Literal["take"]


class DropBody(_Strict):
    type: Literal["drop"]


class PlayBody(_Strict):
    type: Literal["play"]
    steps: list[
        Annotated[list[Annotated[int, Field(ge=0, le=25)]], Field(min_length=2, max_length=2)]
    ] = Field(max_length=4)


class ResignBody(_Strict):
    type: Literal["resign"]
    level: Literal[1, 2, 3] = 1


class AcceptResignBody(_Strict):
    type: Literal["accept_resign"]


class RejectResignBody(_Strict):
    type: Literal["reject_resign"]


class ForfeitBody(_Strict):
    type: Literal["forfeit"]


class AutoplayBody(_Strict):
    type: Literal["autoplay"]
    on: bool


ActionBody = Annotated[
    RollBody
    | DoubleBody
    | TakeBody
    | DropBody
    | PlayBody
    | ResignBody
    | AcceptResignBody
    | RejectResignBody
    | ForfeitBody
    | AutoplayBody,
    Field(discriminator="type"),
]


class Join(_Strict):
    """Watch or play at a room; ``since`` is the last match version this client saw."""

    type: Literal["join"]
    room: str = Field(min_length=1, max_length=64)
    since: int | None = Field(None, ge=0)


class Intent(_Strict):
    """Act at the room joined: ``version`` (optional) is the match version the client saw."""

    type: Literal["intent"]
    action: ActionBody
    version: int | None = Field(None, ge=0)


class Ping(_Strict):
    type: Literal["ping"]


class Talk(_Strict):
    """A seated player's phrase for the table, by id (:mod:`bidak.server.rooms.talk`)."""

    type: Literal["talk"]
    phrase: Literal[
        "hello", "good_luck", "nice_roll", "well_played", "thanks", "oops", "sorry", "good_game"
    ]


ClientMessage = TypeAdapter(Annotated[Join | Intent | Ping | Talk, Field(discriminator="type")])


def to_action(body: Any, player: Player) -> Action:
    """The match action a validated intent body names, for ``player``'s seat."""
    match body:
        case RollBody():
            return Roll(player)
        case DoubleBody():
            return Double(player)
        case TakeBody():
            return Take(player)
        case DropBody():
            return Drop(player)
        case PlayBody(steps=steps):
            return Move(player, tuple((start, end) for start, end in steps))
        case ResignBody(level=level):
            return ResignGame(player, level)
        case AcceptResignBody():
            return AcceptResign(player)
        case RejectResignBody():
            return RejectResign(player)
        case ForfeitBody():
            return ForfeitMatch(player)
        case AutoplayBody(on=on):
            return SetAutoplay(player, on)
    raise TypeError(f"not an action body: {body!r}")  # pragma: no cover - the union is closed


def error(code: str, message: str, room: str | None = None) -> dict[str, Any]:
    """An error message; the connection stays open."""
    return {"type": "error", "code": code, "message": message, "room": room}


Notation = Callable[[Play], str]


def _plays_json(state: MatchState, plays: list[Play], notation: Notation) -> list[dict[str, Any]]:
    """Each legal play with its steps, its notation and, when there are several, every set of
    steps that reaches the same position (``alternatives``), so a client accepts any of them."""
    if not plays:
        return []
    ways = state.roll_alternatives()
    found: list[dict[str, Any]] = []
    for play in plays:
        # A step is a (start, end, hit) named tuple: as a list it is the wire's [start, end, hit].
        entry: dict[str, Any] = {"steps": [list(step) for step in play.steps]}
        entry["notation"] = notation(play)
        others = ways.get(play.result)
        if others is not None and len(others) > 1:
            entry["alternatives"] = [[list(step) for step in way] for way in others]
        found.append(entry)
    return found


_WIRE_NAMES = {"move": "play", "set_autoplay": "autoplay", "opening_roll": None}


def allowed_intents(state: MatchState, seat: Player | None) -> list[str]:
    """The intent types ``seat`` may send now (the names of the protocol's actions)."""
    if seat is None:
        return []
    names = (_WIRE_NAMES.get(name, name) for name in allowed_actions(state, seat))
    return sorted(name for name in names if name is not None)


def match_view(state: MatchState, seat: Player | None, notation: Notation = str) -> dict[str, Any]:
    """The table as ``seat`` sees it (a spectator sees seat 0's side).

    ``notation`` writes a play's notation (a caller may remember them: plays recur).

    Points are numbered from the viewer's side: ``points[i]`` is the viewer's point ``i + 1``,
    positive for the viewer's checkers and negative for the opponent's. ``legal_plays`` is sent
    only to the player who must play them, with steps in that player's numbering (25 = bar,
    0 = off).
    """
    viewer = Player.ZERO if seat is None else seat
    position = state.position_for(viewer)
    pips = state.position.pips  # seen by state.viewer
    seen_by_viewer = viewer is state.viewer
    plays = (
        current_plays(state)
        if seat is not None and state.turn is seat and state.dice is not None
        else []
    )
    off = position.off
    return {
        "phase": state.phase.value,
        "game": state.game,
        "turn": None if state.turn is None else int(state.turn),
        "viewer": int(viewer),
        "points": list(position.points),
        "bar": [position.bar.mover, position.bar.opponent],
        "off": [off.mover, off.opponent],
        "pips": [pips.mover, pips.opponent] if seen_by_viewer else [pips.opponent, pips.mover],
        "dice": None if state.dice is None else list(state.dice),
        "cube": {
            "value": state.cube,
            "owner": None if state.cube_owner is None else int(state.cube_owner),
            "offered": state.pending_cube if state.pending_cube != state.cube else None,
            "in_use": state.rules.cube_in_use,
        },
        "score": list(state.score),
        "length": state.rules.length,
        "crawford": state.crawford,
        "post_crawford": state.post_crawford,
        "resign": None
        if not state.resign_stakes
        else {
            "level": state.resign_stakes,
            "by": None if state.resigner is None else int(state.resigner),
        },
        "autoplay": list(state.autoplay),
        "strikes": list(state.strikes),
        "strike_limit": state.rules.strike_limit,
        "winner": None if state.winner is None else int(state.winner),
        "legal_plays": _plays_json(state, plays, notation),
        "allowed": allowed_intents(state, seat),
    }
