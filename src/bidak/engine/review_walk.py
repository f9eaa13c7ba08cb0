"""Walking a match's event log to the decisions a review looks at (pure: no engine here).

A :class:`CheckerSpot` is every ``Played`` event (the state before it holds the position and
the roll). A :class:`CubeSpot` is the doubler's moment before a roll: a ``Doubled`` event, or
a ``DiceRolled`` by a player who could have doubled (the implicit "no double"); a double's
``Taken`` or ``Dropped`` is attached to its spot as the taker's answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

from bidak.formats import GameState, MatchInfo, format_gnubg_id, to_xgid
from bidak.match import (
    DiceRolled,
    Doubled,
    Dropped,
    Event,
    GameStarted,
    GameWon,
    MatchState,
    Phase,
    Played,
    Player,
    Taken,
    apply_event,
    can_double,
)
from bidak.rules import Play, find_play


@dataclass(frozen=True, slots=True)
class Spot:
    """A moment a player decided something: the state just before, in its game and turn."""

    state: MatchState
    game: int
    turn: int

    @property
    def player(self) -> Player:
        assert self.state.turn is not None
        return self.state.turn


@dataclass(frozen=True, slots=True)
class CheckerSpot(Spot):
    """A roll (``state.dice``) and the play made; ``opening``: the game's first roll."""

    played: Played
    opening: bool


@dataclass(frozen=True, slots=True)
class CubeSpot(Spot):
    """The player on roll doubled or not; ``taken`` is the answer (``None``: none, or not yet)."""

    doubled: bool
    taken: bool | None = None


@dataclass(frozen=True, slots=True)
class GameMark:
    """A game starts (``started``) or ends (``won``)."""

    started: GameStarted | None = None
    won: GameWon | None = None


Item = CheckerSpot | CubeSpot | GameMark


def walk(events: Iterable[Event]) -> Iterator[Item]:
    """The decisions of a log in order, with a :class:`GameMark` at each game's start and end.

    The log is replayed with :func:`bidak.match.apply_event`, so a corrupt log raises
    :class:`~bidak.errors.InvalidMatchData`.
    """
    state: MatchState | None = None
    turn = 0
    pending: CubeSpot | None = None
    for event in events:
        if state is not None:
            if isinstance(event, GameStarted):
                turn = 0
                yield GameMark(started=event)
            elif isinstance(event, Played):
                turn += 1
                opening = turn == 1
                yield CheckerSpot(state, state.game, turn, event, opening)
            elif isinstance(event, DiceRolled) and can_double(state, event.player):
                yield CubeSpot(state, state.game, turn + 1, doubled=False)
            elif isinstance(event, Doubled):
                pending = CubeSpot(state, state.game, turn + 1, doubled=True)
            elif isinstance(event, Taken | Dropped) and pending is not None:
                yield replace(pending, taken=isinstance(event, Taken))
                pending = None
            elif isinstance(event, GameWon):
                yield GameMark(won=event)
        if pending is not None and not isinstance(event, Doubled):
            yield pending  # a double left unanswered (the log stops, or an odd log)
            pending = None
        state = apply_event(state, event)
    if pending is not None:
        yield pending


def played_play(spot: CheckerSpot) -> Play:
    """The legal :class:`~bidak.rules.Play` a ``Played`` event names."""
    assert spot.state.dice is not None
    steps = [(start, end) for start, end, _ in spot.played.steps]
    return find_play(spot.state.position, spot.state.dice, steps)


def state_ids(state: MatchState) -> tuple[str, str]:
    """The gnubg ID (``PositionID:MatchID``) and the XGID of a state in a game.

    The position is the player on roll's view; a pending double shows as offered.
    """
    on_roll = state.turn if state.turn is not None else Player.ZERO
    doubled = state.phase is Phase.DOUBLED
    info = MatchInfo(
        cube_value=state.cube,
        cube_owner=None if state.cube_owner is None else int(state.cube_owner),
        on_roll=int(on_roll),
        crawford=state.crawford,
        game_state=GameState.PLAYING,
        turn=int(on_roll.opponent if doubled else on_roll),
        double_offered=doubled,
        dice=state.dice if state.phase is Phase.MOVE else None,
        length=state.rules.length,
        score=state.score,
    )
    return format_gnubg_id(state.position, info), to_xgid(state.position, info)
