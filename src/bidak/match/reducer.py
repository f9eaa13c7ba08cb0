"""The reducer: the one place a match state changes, one event at a time.

:func:`apply_event` trusts nothing: an event that does not fit the state (a corrupt or reordered
log) raises :class:`~bidak.errors.InvalidMatchData`, and a ``Played`` event is matched against
the legal plays again, so :func:`replay` of a stored log rebuilds exactly the state it recorded.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields
from operator import attrgetter
from typing import Final, TypedDict

from bidak.errors import InvalidMatchData
from bidak.match.checks import MAX_CUBE
from bidak.match.events import (
    AutoplayChanged,
    DiceRolled,
    Doubled,
    Dropped,
    Event,
    GameStarted,
    GameWon,
    MatchForfeited,
    MatchStarted,
    MatchWon,
    OpeningRolled,
    OpeningTie,
    Played,
    ResignAccepted,
    ResignOffered,
    ResignRejected,
    Taken,
    TimedOut,
)
from bidak.match.player import Player, pair_with
from bidak.match.ruleset import OpeningRule
from bidak.match.state import MatchState, Phase
from bidak.rules import Position, check_dice, find_play, outcome


def replay(events: Iterable[Event]) -> MatchState:
    """The state an event log leads to; the first event must be ``MatchStarted``."""
    state: MatchState | None = None
    for event in events:
        state = apply_event(state, event)
    if state is None:
        raise InvalidMatchData("an empty log holds no match")
    return state


def apply_event(state: MatchState | None, event: Event) -> MatchState:
    """The state after ``event``; ``state`` is ``None`` only before ``MatchStarted``."""
    if isinstance(event, MatchStarted):
        _require(state is None, event, "the match has already started")
        return MatchState(
            rules=event.rules, position=Position.initial(event.rules.variant), version=1
        )
    if state is None:
        raise InvalidMatchData(f"a log starts with match_started, not {event.type}")
    _require(state.phase is not Phase.MATCH_OVER, event, "the match is over")
    return _changed(state, _changes(state, event), version=state.version + 1)


class _Changes(TypedDict, total=False):
    """The fields of a :class:`MatchState` an event changes (``version`` always does)."""

    position: Position
    score: tuple[int, int]
    game: int
    crawford: bool
    post_crawford: bool
    phase: Phase
    turn: Player | None
    dice: tuple[int, int] | None
    cube: int
    cube_owner: Player | None
    resign_stakes: int
    resigner: Player | None
    strikes: tuple[int, int]
    struck: tuple[bool, bool]
    autoplay: tuple[bool, bool]
    winner: Player | None


_NOBODY_STRUCK: Final = (False, False)
"""A new turn: nobody has had a strike in it yet."""

_FIELDS: Final = tuple(field.name for field in fields(MatchState) if field.init)
"""The fields a state is built from, in the order ``MatchState(...)`` takes them."""
_INDEX: Final = {name: index for index, name in enumerate(_FIELDS)}
_all_fields: Final = attrgetter(*_FIELDS)


def _changed(state: MatchState, changes: _Changes, version: int) -> MatchState:
    """``dataclasses.replace(state, **changes, version=version)``, without its per-call walk
    over the fields: the one place a new state is built from an old one.

    The new state comes from ``MatchState``'s own ``__init__``, so it starts without the plays
    ``state`` may have remembered for its dice (as with ``replace``).

    >>> from inspect import signature
    >>> tuple(signature(MatchState).parameters) == _FIELDS
    True
    """
    values = list(_all_fields(state))
    for name, value in changes.items():
        values[_INDEX[name]] = value
    values[_INDEX["version"]] = version
    return MatchState(*values)


def _changes(state: MatchState, event: Event) -> _Changes:
    """What ``event`` changes in ``state``; raises if it does not fit."""
    match event:
        case GameStarted():
            return _game_started(state, event)
        case OpeningTie():
            _require(state.phase is Phase.OPENING, event, "no opening roll is due")
            _require(event.dice[0] == event.dice[1], event, "the dice differ")
            return {}
        case OpeningRolled():
            return _opening_rolled(state, event)
        case DiceRolled():
            _expect(state, event, Phase.ROLL, state.turn)
            return {"phase": Phase.MOVE, "dice": check_dice(event.dice)}
        case Played():
            return _played(state, event)
        case Doubled():
            _expect(state, event, Phase.ROLL, state.turn)
            _require(event.value == 2 * state.cube <= MAX_CUBE, event, "wrong cube value")
            return {"phase": Phase.DOUBLED}
        case Taken():
            _expect(state, event, Phase.DOUBLED, _opponent(state))
            _require(event.value == 2 * state.cube, event, "wrong cube value")
            return {"phase": Phase.ROLL, "cube": event.value, "cube_owner": event.player}
        case Dropped():
            _expect(state, event, Phase.DOUBLED, _opponent(state))
            return {"phase": Phase.BETWEEN_GAMES}
        case ResignOffered():
            _require(state.phase in (Phase.ROLL, Phase.MOVE), event, "no game is being played")
            _require(event.stakes in (1, 2, 3), event, "a resignation is for 1, 2 or 3 x cube")
            return {
                "phase": Phase.RESIGN_OFFERED,
                "resign_stakes": event.stakes,
                "resigner": event.player,
            }
        case ResignAccepted():
            _expect_answer(state, event)
            return {"phase": Phase.BETWEEN_GAMES}
        case ResignRejected():
            _expect_answer(state, event)
            # Play goes back to where it was: the dice tell whether they had been rolled.
            back = Phase.ROLL if state.dice is None else Phase.MOVE
            return {"phase": back, "resign_stakes": 0, "resigner": None}
        case GameWon():
            return _game_won(state, event)
        case MatchForfeited():
            winner = event.player.opponent
            points = max(state.score[winner], state.rules.length)
            return {"score": pair_with(state.score, winner, points)}
        case MatchWon():
            _require(state.score[event.winner] >= state.rules.length, event, "too few points")
            _require(event.score == state.score, event, "the score differs")
            changes = _no_game(state)
            changes["phase"] = Phase.MATCH_OVER
            changes["winner"] = event.winner
            changes["score"] = event.score
            return changes
        case TimedOut():
            return _timed_out(state, event)
        case AutoplayChanged():
            return {"autoplay": pair_with(state.autoplay, event.player, event.on)}
        case MatchStarted():  # pragma: no cover - handled by apply_event
            raise InvalidMatchData("the match has already started")


def next_is_crawford(state: MatchState) -> bool:
    """Whether the game after ``state``'s is the Crawford game: the game right after a player
    first reaches match length - 1 (rules.md 7). ``state.score`` is the score after the game."""
    first_time = state.game > 0 and not state.crawford and not state.post_crawford
    return first_time and max(state.score) == state.rules.length - 1


def _game_started(state: MatchState, event: GameStarted) -> _Changes:
    _require(state.phase is Phase.BETWEEN_GAMES and state.turn is None, event, "a game is on")
    _require(event.game == state.game + 1, event, f"game {state.game + 1} is next")
    _require(event.score == state.score, event, "the score differs")
    _require(max(state.score) < state.rules.length, event, "the match has been won")
    _require(event.crawford == next_is_crawford(state), event, "the Crawford flag is wrong")
    return {
        "game": event.game,
        "crawford": event.crawford,
        "post_crawford": event.game > 1 and (state.crawford or state.post_crawford),
        "phase": Phase.OPENING,
        "position": Position.initial(state.rules.variant),
        "cube": 1,
        "cube_owner": None,
    }


def _opening_rolled(state: MatchState, event: OpeningRolled) -> _Changes:
    _require(state.phase is Phase.OPENING, event, "no opening roll is due")
    zero, one = event.dice
    _require(zero != one, event, "a tie is rolled again")
    higher = Player.ZERO if zero > one else Player.ONE
    starter = higher if state.rules.opening is OpeningRule.HIGHER_STARTS else higher.opponent
    _require(event.starter is starter, event, "the other player starts")
    return {
        "phase": Phase.MOVE,
        "turn": starter,
        "position": state.position_for(starter),
        "dice": event.dice,
        "struck": _NOBODY_STRUCK,
    }


def _timed_out(state: MatchState, event: TimedOut) -> _Changes:
    """A strike, unless the player already had one this turn (rules.md 9)."""
    player = event.player
    before = state.strikes[player]
    counted = before if state.struck[player] else before + 1
    # Logs written before strikes were counted per turn have a strike for every timeout.
    _require(event.strikes in (counted, before + 1), event, "the strikes do not add up")
    limit = state.rules.strike_limit
    left = None if limit is None else max(0, limit - event.strikes)
    _require(event.left is None or event.left == left, event, "the strikes left do not add up")
    return {
        "strikes": pair_with(state.strikes, player, event.strikes),
        "struck": pair_with(state.struck, player, True),
    }


def _played(state: MatchState, event: Played) -> _Changes:
    _expect(state, event, Phase.MOVE, state.turn)
    _require(event.dice == state.dice, event, "those are not the dice rolled")
    steps = sorted(((start, end) for start, end, _ in event.steps), reverse=True)
    result = find_play(state.position, event.dice, steps, state.roll_plays()).result
    if outcome(result) is not None:
        # The game is over: the GameWon that follows scores it.
        return {"phase": Phase.BETWEEN_GAMES, "position": result, "dice": None}
    assert state.turn is not None
    return {
        "phase": Phase.ROLL,
        "turn": state.turn.opponent,
        "position": result.flipped(),
        "dice": None,
        "struck": _NOBODY_STRUCK,
    }


def _game_won(state: MatchState, event: GameWon) -> _Changes:
    _require(
        state.phase is Phase.BETWEEN_GAMES and state.turn is not None, event, "no game just ended"
    )
    expected = pair_with(state.score, event.winner, state.score[event.winner] + event.points)
    _require(event.points > 0 and event.score == expected, event, "the score does not add up")
    changes = _no_game(state)
    changes["score"] = event.score
    return changes


def _no_game(state: MatchState) -> _Changes:
    """No game in progress: nobody on roll, the board seen by ``Player.ZERO``."""
    return {
        "phase": Phase.BETWEEN_GAMES,
        "turn": None,
        "position": state.position_for(Player.ZERO),
        "dice": None,
        "resign_stakes": 0,
        "resigner": None,
        "struck": _NOBODY_STRUCK,
    }


def _opponent(state: MatchState) -> Player | None:
    return None if state.turn is None else state.turn.opponent


def _expect(state: MatchState, event: Event, phase: Phase, player: Player | None) -> None:
    _require(state.phase is phase, event, f"the match is in phase {state.phase.value}")
    _require(getattr(event, "player", None) is player, event, "wrong player")


def _expect_answer(state: MatchState, event: ResignAccepted | ResignRejected) -> None:
    _require(state.phase is Phase.RESIGN_OFFERED, event, "no resignation is offered")
    _require(
        state.resigner is not None and event.player is state.resigner.opponent,
        event,
        "only the resigner's opponent answers",
    )


def _require(condition: bool, event: Event, why: str) -> None:
    if not condition:
        raise InvalidMatchData(f"{event.type} does not fit the match: {why}")
