"""Applying actions: validate, decide the events (drawing dice), fold them through the reducer.

>>> from bidak.match import Player, RuleSet, ScriptedDice, OpeningRoll, start_match
>>> started = start_match(RuleSet(length=5))
>>> state, events = apply(started.state, OpeningRoll(Player.ZERO), ScriptedDice([3, 3, 3, 1]))
>>> [event.type for event in events]
['opening_tie', 'opening_rolled']
>>> state.phase, state.turn, state.dice
(<Phase.MOVE: 'move'>, <Player.ZERO: 0>, (3, 1))
>>> state, events = apply(state, Move(Player.ZERO, ((8, 5), (6, 5))), ScriptedDice([]))
>>> events[0].notation, state.turn, state.phase
('8/5 6/5', <Player.ONE: 1>, <Phase.ROLL: 'roll'>)
"""

from __future__ import annotations

from typing import Final, NamedTuple

from bidak.errors import InvalidDice
from bidak.match.actions import (
    AcceptResign,
    Action,
    Double,
    Drop,
    ForfeitMatch,
    Move,
    OpeningRoll,
    RejectResign,
    ResignGame,
    Roll,
    SetAutoplay,
    Take,
    Timeout,
)
from bidak.match.checks import checked_play
from bidak.match.dice import DiceSource, draw
from bidak.match.events import (
    AutoplayChanged,
    DiceRolled,
    Doubled,
    Dropped,
    Event,
    GameEnd,
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
    played_steps,
)
from bidak.match.player import Player, pair_with
from bidak.match.reducer import apply_event, next_is_crawford
from bidak.match.ruleset import OpeningRule, RuleSet
from bidak.match.state import MatchState
from bidak.rules import Play, WinKind, outcome

_MAX_OPENING_TIES: Final = 100
_GAME_ENDS: Final = {
    WinKind.SINGLE: GameEnd.SINGLE,
    WinKind.GAMMON: GameEnd.GAMMON,
    WinKind.BACKGAMMON: GameEnd.BACKGAMMON,
}


class Transition(NamedTuple):
    """The state after an action and the events that led there, in order."""

    state: MatchState
    events: tuple[Event, ...]


def start_match(rules: RuleSet) -> Transition:
    """A new match: ``MatchStarted`` and the first ``GameStarted``, waiting for the opening roll."""
    log = _Log(None)
    log.emit(MatchStarted(rules))
    log.emit(GameStarted(1, (0, 0), crawford=False))
    return log.transition()


def new_match(rules: RuleSet) -> MatchState:
    """The state of a new match (see :func:`start_match` for its events)."""
    return start_match(rules).state


def apply(state: MatchState, action: Action, dice: DiceSource) -> Transition:
    """Apply ``action``; raises :class:`~bidak.errors.IllegalAction` (or ``IllegalPlay``) if it is
    not allowed now, leaving nothing changed (no dice are drawn for a refused action)."""
    play = checked_play(state, action)
    log = _Log(state)
    _run(log, action, dice, play)
    return log.transition()


class _Log:
    """The events of one transition so far and the state they lead to."""

    __slots__ = ("events", "state")

    def __init__(self, state: MatchState | None) -> None:
        self.state = state
        self.events: list[Event] = []

    @property
    def now(self) -> MatchState:
        assert self.state is not None
        return self.state

    def emit(self, event: Event) -> None:
        self.state = apply_event(self.state, event)
        self.events.append(event)

    def transition(self) -> Transition:
        return Transition(self.now, tuple(self.events))


def _run(log: _Log, action: Action, dice: DiceSource, play: Play | None) -> None:
    """Emit the events of a checked ``action``; ``play`` is the legal play a ``Move`` names (found
    by the check, from the same position and dice)."""
    state, player = log.now, action.player
    match action:
        case OpeningRoll():
            _opening_roll(log, dice)
        case Roll():
            log.emit(DiceRolled(player, (draw(dice), draw(dice))))
        case Move():
            assert play is not None
            _play(log, action, play)
        case Double():
            log.emit(Doubled(player, 2 * state.cube))
        case Take():
            log.emit(Taken(player, 2 * state.cube))
        case Drop():
            # The doubler scores the cube before the double; gammons do not count (rules.md 7).
            log.emit(Dropped(player))
            _end_game(log, player.opponent, state.cube, GameEnd.DROP)
        case ResignGame():
            log.emit(ResignOffered(player, action.stakes))
        case AcceptResign():
            log.emit(ResignAccepted(player))
            _end_game(log, player, state.resign_stakes * state.cube, GameEnd.RESIGN)
        case RejectResign():
            log.emit(ResignRejected(player))
        case ForfeitMatch():
            _forfeit(log, player)
        case SetAutoplay():
            if state.autoplay[player] != action.on:
                log.emit(AutoplayChanged(player, action.on))
        case Timeout():
            _timeout(log, action, dice, play)


def _opening_roll(log: _Log, dice: DiceSource) -> None:
    """Each player throws one die; ties are thrown again (rules.md 2)."""
    for _ in range(_MAX_OPENING_TIES):
        zero, one = draw(dice), draw(dice)
        if zero != one:
            break
        log.emit(OpeningTie((zero, one)))
    else:
        raise InvalidDice(f"the dice tied {_MAX_OPENING_TIES} times in a row")
    higher = Player.ZERO if zero > one else Player.ONE
    starter = higher if log.now.rules.opening is OpeningRule.HIGHER_STARTS else higher.opponent
    log.emit(OpeningRolled((zero, one), starter))


def _play(log: _Log, action: Move, play: Play) -> None:
    state = log.now
    assert state.dice is not None
    log.emit(Played(action.player, state.dice, played_steps(play), str(play)))
    result = outcome(play.result)
    if result is not None:
        # Bearing off the last checker wins the cube times the kind of win (rules.md 6).
        kind = _GAME_ENDS[result.kind]
        _end_game(log, action.player, result.kind.value * state.cube, kind)


def _end_game(log: _Log, winner: Player, points: int, kind: GameEnd) -> None:
    """Score the game, then start the next one or end the match (rules.md 7 and 8)."""
    state = log.now
    score = pair_with(state.score, winner, state.score[winner] + points)
    log.emit(GameWon(winner, points, kind, score))
    if score[winner] >= state.rules.length:
        log.emit(MatchWon(winner, score))
        return
    log.emit(GameStarted(state.game + 1, score, crawford=next_is_crawford(log.now)))


def _forfeit(log: _Log, player: Player) -> None:
    log.emit(MatchForfeited(player))
    log.emit(MatchWon(player.opponent, log.now.score))


def _timeout(log: _Log, action: Timeout, dice: DiceSource, play: Play | None) -> None:
    """Apply the room's timeout policy (rules.md 9); the fallback has been checked.

    A strike is counted once per turn: the second timeout of a turn (its play, after its roll
    decision timed out) is told but not counted again.
    """
    state, player = log.now, action.player
    strikes = state.strikes[player] + (0 if state.struck[player] else 1)
    limit = state.rules.strike_limit
    log.emit(TimedOut(player, strikes, None if limit is None else max(0, limit - strikes)))
    if limit is not None:
        if strikes >= limit:
            # Lost on time, scored as a forfeit: the opponent is given the match.
            _forfeit(log, player)
            return
    elif not state.autoplay[player]:
        log.emit(AutoplayChanged(player, True))
    _run(log, action.fallback, dice, play)
