"""The pure match state machine: rule set, dice, cube, Crawford, scoring, events and replay.

Standard library and :mod:`bidak.rules` only; no I/O, no global state, no randomness of its own
(dice come from a :class:`DiceSource`). Rule source: ``docs/rules.md`` sections 2 and 6-9.

A match is its event log. :func:`apply` checks an action, draws the dice it needs and returns a
:class:`Transition` (the new state and the events); :func:`apply_event` is the only place a state
changes, and :func:`replay` rebuilds a state from its log. :func:`advance` applies the steps
nobody chooses (:func:`automatic_action`) until someone must decide; :meth:`Move.of` makes the
move that plays a :class:`~bidak.rules.Play`.

>>> rules = RuleSet(length=3)
>>> state, events = start_match(rules)
>>> state.phase, state.game
(<Phase.OPENING: 'opening'>, 1)
>>> state, more = apply(state, OpeningRoll(Player.ONE), ScriptedDice([2, 5]))
>>> more
(OpeningRolled(dice=(2, 5), starter=<Player.ONE: 1>),)
>>> [str(play) for play in current_plays(state)][:2]
['24/22 13/8', '13/11 13/8']
>>> replay(events + more) == state
True
"""

from bidak.errors import InvalidMatchData
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
from bidak.match.advance import advance, automatic_steps
from bidak.match.checks import check_action, fixed_fallback
from bidak.match.dice import DiceSource, ScriptedDice, SeededDice
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
from bidak.match.machine import Transition, apply, new_match, start_match
from bidak.match.player import Player
from bidak.match.queries import (
    allowed_actions,
    automatic_action,
    can_double,
    current_plays,
    decider,
    forced_play,
)
from bidak.match.reducer import apply_event, replay
from bidak.match.ruleset import STRIKES_TO_LOSE, OpeningRule, RuleSet, TimeoutPolicy
from bidak.match.serialize import (
    event_from_json,
    event_to_json,
    rules_from_json,
    rules_to_json,
    state_from_json,
    state_to_json,
)
from bidak.match.simulate import random_match
from bidak.match.state import MatchState, Phase
from bidak.match.transcript import describe, transcript

__all__ = [
    "STRIKES_TO_LOSE",
    "AcceptResign",
    "Action",
    "AutoplayChanged",
    "DiceRolled",
    "DiceSource",
    "Double",
    "Doubled",
    "Drop",
    "Dropped",
    "Event",
    "ForfeitMatch",
    "GameEnd",
    "GameStarted",
    "GameWon",
    "InvalidMatchData",
    "MatchForfeited",
    "MatchStarted",
    "MatchState",
    "MatchWon",
    "Move",
    "OpeningRoll",
    "OpeningRolled",
    "OpeningRule",
    "OpeningTie",
    "Phase",
    "Played",
    "Player",
    "RejectResign",
    "ResignAccepted",
    "ResignGame",
    "ResignOffered",
    "ResignRejected",
    "Roll",
    "RuleSet",
    "ScriptedDice",
    "SeededDice",
    "SetAutoplay",
    "Take",
    "Taken",
    "TimedOut",
    "Timeout",
    "TimeoutPolicy",
    "Transition",
    "advance",
    "allowed_actions",
    "apply",
    "apply_event",
    "automatic_action",
    "automatic_steps",
    "can_double",
    "check_action",
    "current_plays",
    "decider",
    "describe",
    "event_from_json",
    "event_to_json",
    "fixed_fallback",
    "forced_play",
    "new_match",
    "played_steps",
    "random_match",
    "replay",
    "rules_from_json",
    "rules_to_json",
    "start_match",
    "state_from_json",
    "state_to_json",
    "transcript",
]
