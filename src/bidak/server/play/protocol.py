"""The WebSocket protocol: client messages (validated) and the table each seat is drawn.

Documented with examples in ``docs/protocol.md``, whose tables of messages are rendered from the
models here and in :mod:`bidak.server.play.wire` (the server's messages). Version 1. Every server
message about a match carries the room code and the match version (the number of events so far),
so a reconnecting client says what it saw last and gets exactly what it missed.

A client message's docstring says what it does, its fields' descriptions what they hold.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Final, Literal, cast

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from bidak.match import (
    AcceptResign,
    Action,
    Double,
    Drop,
    ForfeitMatch,
    MatchState,
    Move,
    OpeningRoll,
    Phase,
    Player,
    RejectResign,
    ResignGame,
    Roll,
    SetAutoplay,
    Take,
    allowed_actions,
    current_plays,
)
from bidak.rules import Play, Step
from bidak.server.play.wire.messages import Phrase
from bidak.server.play.wire.table import IntentType, LegalPlay, Table
from bidak.server.play.wire.table import Phase as WirePhase


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RollBody(_Strict):
    """Your turn, before rolling."""

    type: Literal["roll"]


class DoubleBody(_Strict):
    """Your turn, before rolling, cube available to you."""

    type: Literal["double"]


class TakeBody(_Strict):
    """You were doubled."""

    type: Literal["take"]


class DropBody(_Strict):
    """You were doubled."""

    type: Literal["drop"]


class PlayBody(_Strict):
    """After rolling; the empty list when no move is possible (the server plays that one
    itself)."""

    type: Literal["play"]
    steps: list[
        Annotated[list[Annotated[int, Field(ge=0, le=25)]], Field(min_length=2, max_length=2)]
    ] = Field(
        max_length=4,
        description="`[start, end]` in your numbering, 25 = bar, 0 = off, one step per die, any"
        " order",
    )


class ResignBody(_Strict):
    """During a game: offers to lose this game only; the opponent accepts or rejects (a bot
    answers by its equity)."""

    type: Literal["resign"]
    level: Literal[1, 2, 3] = Field(
        1, description="1 single (the default), 2 gammon, 3 backgammon, times the cube"
    )


class AcceptResignBody(_Strict):
    """Your opponent offered to resign."""

    type: Literal["accept_resign"]


class RejectResignBody(_Strict):
    """Your opponent offered to resign."""

    type: Literal["reject_resign"]


class ForfeitBody(_Strict):
    """Lose the whole match now (what the client's Resign button does): the opponent's score
    becomes the match length, yours stays."""

    type: Literal["forfeit"]


class AutoplayBody(_Strict):
    """Take back control from auto-play (`false`), or hand it over (`true`)."""

    type: Literal["autoplay"]
    on: bool


ACTION_BODIES: Final = (
    RollBody,
    DoubleBody,
    TakeBody,
    DropBody,
    PlayBody,
    ResignBody,
    AcceptResignBody,
    RejectResignBody,
    ForfeitBody,
    AutoplayBody,
)
"""Every action of an intent, in the docs' order."""

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
    """Watch or play at a room."""

    type: Literal["join"]
    room: str = Field(min_length=1, max_length=64)
    since: int | None = Field(
        None, ge=0, description="optional: the last match version this client saw"
    )


class Intent(_Strict):
    """Act at the joined room; with `version`, the server refuses the intent if the table
    changed meanwhile (`stale`), except `forfeit`, `resign` and `autoplay`, which do not depend
    on the position."""

    type: Literal["intent"]
    action: ActionBody = Field(description="one of the actions below")
    version: int | None = Field(
        None, ge=0, description="optional: the match version the client saw"
    )


class Ping(_Strict):
    """The server answers `pong` with its clock."""

    type: Literal["ping"]


class Talk(_Strict):
    """A seated player's phrase for the table, shown in each viewer's language; at most one
    every 3 s per player (`rate_limited`), spectators may not (`not_seated`)."""

    type: Literal["talk"]
    phrase: Phrase


CLIENT_MESSAGES: Final = (Join, Intent, Ping, Talk)
"""Every client message, in the docs' order."""

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


Notation = Callable[[Play], str]


def _plays_json(state: MatchState, plays: list[Play], notation: Notation) -> list[LegalPlay]:
    """Each legal play with its steps, its notation and, when there are several, every set of
    steps that reaches the same position (``alternatives``), so a client accepts any of them."""
    if not plays:
        return []
    ways = state.roll_alternatives()
    found: list[LegalPlay] = []
    for play in plays:
        # A step is a (start, end, hit) named tuple: as a list it is the wire's [start, end, hit].
        entry: LegalPlay = {
            "steps": [list(step) for step in play.steps],
            "notation": notation(play),
        }
        others = ways.get(play.result)
        if others is not None and len(others) > 1:
            entry["alternatives"] = [[list(step) for step in way] for way in others]
        found.append(entry)
    return found


_INTENTS: Final[dict[str, IntentType | None]] = {
    OpeningRoll.name: None,  # the server rolls the opening itself
    Roll.name: "roll",
    Move.name: "play",
    Double.name: "double",
    Take.name: "take",
    Drop.name: "drop",
    ResignGame.name: "resign",
    AcceptResign.name: "accept_resign",
    RejectResign.name: "reject_resign",
    ForfeitMatch.name: "forfeit",
    SetAutoplay.name: "autoplay",
}
"""The wire name of each action a player may be allowed (:func:`bidak.match.allowed_actions`)."""


def allowed_intents(state: MatchState, seat: Player | None) -> list[IntentType]:
    """The intent types ``seat`` may send now (the names of the protocol's actions)."""
    return [] if seat is None else list(_intents(allowed_actions(state, seat))[0])


def _allowed_json(state: MatchState, seat: Player | None) -> str:
    """:func:`allowed_intents` as JSON text."""
    return "[]" if seat is None else _intents(allowed_actions(state, seat))[1]


_NAMED: dict[frozenset[str], tuple[tuple[IntentType, ...], str]] = {}
"""The intents of each set of allowed actions, sorted, and as JSON (a few dozen sets occur)."""


def _intents(actions: frozenset[str]) -> tuple[tuple[IntentType, ...], str]:
    found = _NAMED.get(actions)
    if found is None:
        names = (_INTENTS[name] for name in actions)
        intents = tuple(sorted(name for name in names if name is not None))
        found = _NAMED[actions] = (intents, orjson.dumps(intents).decode())
    return found


_PHASES: Final[dict[Phase, WirePhase]] = {
    Phase.OPENING: "opening",
    Phase.ROLL: "roll",
    Phase.MOVE: "move",
    Phase.DOUBLED: "doubled",
    Phase.RESIGN_OFFERED: "resign_offered",
    Phase.MATCH_OVER: "match_over",
}
"""The wire name of each phase (the same words as the stored values)."""


def match_view(state: MatchState, seat: Player | None, notation: Notation = str) -> Table:
    """The table as ``seat`` sees it (a spectator sees seat 0's side).

    ``notation`` writes a play's notation (a caller may remember them: plays recur).

    Points are numbered from the viewer's side: ``points[i]`` is the viewer's point ``i + 1``,
    positive for the viewer's checkers and negative for the opponent's. ``legal_plays`` is sent
    only to the player who must play them, with steps in that player's numbering (25 = bar,
    0 = off).
    """
    table = {
        **_head(state, seat),
        "legal_plays": _plays_json(state, _shown_plays(state, seat), notation),
        "allowed": allowed_intents(state, seat),
    }
    return cast(Table, table)


def table_json(state: MatchState, seat: Player | None, texts: PlayTexts) -> str:
    """:func:`match_view` as the JSON text sent, the same table (``tests/server/test_table_json``):
    its legal plays are put together from texts ``texts`` keeps, not drawn play by play (the
    mover's table lists every play and every order of its steps, and the same plays recur)."""
    head = orjson.dumps(_head(state, seat)).decode()
    plays = texts.plays(state, _shown_plays(state, seat))
    allowed = _allowed_json(state, seat)
    return f'{head[:-1]},"legal_plays":[{plays}],"allowed":{allowed}}}'


def _shown_plays(state: MatchState, seat: Player | None) -> list[Play]:
    """The legal plays ``seat``'s table lists: the mover's, to the mover only."""
    if seat is not None and state.turn is seat and state.dice is not None:
        return current_plays(state)
    return []


def _head(state: MatchState, seat: Player | None) -> dict[str, Any]:
    """The table but its ``legal_plays`` and ``allowed``, in the wire's order."""
    viewer = Player.ZERO if seat is None else seat
    position = state.position_for(viewer)
    pips = state.position.pips  # seen by state.viewer
    seen_by_viewer = viewer is state.viewer
    off = position.off
    return {
        "phase": _PHASES[state.phase],
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
    }


KEPT_TEXTS = 100_000
"""Texts :class:`PlayTexts` keeps of each kind (all are forgotten at once when there are more)."""


class PlayTexts:
    """The JSON text of legal plays, kept by their steps: a play's ``{"steps", "notation"}``
    and each order of steps as an array. Plays recur across tables (over the listed plays of
    random matches, 61% had been seen before after 51 matches, 77% after 200: docs/performance.md),
    so a table's plays are mostly joined from texts already made."""

    def __init__(self, size: int = KEPT_TEXTS) -> None:
        self.size = size
        self._plays: dict[tuple[Step, ...], str] = {}
        self._ways: dict[tuple[Step, ...], str] = {}

    def play(self, play: Play) -> str:
        """``{"steps": [...], "notation": ...}`` of ``play``."""
        text = self._plays.get(play.steps)
        if text is None:
            if len(self._plays) >= self.size:
                self._plays.clear()
            steps, notation = self.way(play.steps), orjson.dumps(str(play)).decode()
            text = self._plays[play.steps] = f'{{"steps":{steps},"notation":{notation}}}'
        return text

    def way(self, steps: tuple[Step, ...]) -> str:
        """``steps`` as the wire's array of ``[start, end, hit]``."""
        text = self._ways.get(steps)
        if text is None:
            if len(self._ways) >= self.size:
                self._ways.clear()
            text = self._ways[steps] = orjson.dumps([list(step) for step in steps]).decode()
        return text

    def plays(self, state: MatchState, plays: list[Play]) -> str:
        """The members of ``legal_plays`` for ``plays`` (of ``state``'s roll), comma-joined:
        each play's text, with ``alternatives`` when several orders of steps reach its
        result (as :func:`_plays_json`)."""
        if not plays:
            return ""
        ways = state.roll_alternatives()
        found: list[str] = []
        for play in plays:
            text = self.play(play)
            others = ways.get(play.result)
            if others is not None and len(others) > 1:
                joined = ",".join([self.way(way) for way in others])
                text = f'{text[:-1]},"alternatives":[{joined}]}}'
            found.append(text)
        return ",".join(found)
