"""Advancing a match: the steps nobody chooses, applied until someone must decide (rules.md 10).

After every decision the match may go on by itself: the opening roll, the roll of a player who
cannot double, a roll with only one way to play it. :func:`advance` applies all of them and
returns the state that waits for a decision (or the end of the match) with their events; it is
what the server does after every action. :func:`automatic_steps` is the same loop one step at a
time, for a caller that stops between steps (at the end of a game) or shows each one as it comes.

Each step is :func:`~bidak.match.automatic_action` applied with :func:`~bidak.match.apply`, so it
is checked, drawn and logged like anyone's action. An automatic action is always the decider's
own (the opening roll has no decider), so no step is ever taken for a player while the other must
decide.

>>> from bidak.match import Move, Player, RuleSet, ScriptedDice, apply, new_match
>>> state, events = advance(new_match(RuleSet(length=3, cube=False)), ScriptedDice([6, 5]))
>>> [event.type for event in events], state.phase, state.turn
(['opening_rolled'], <Phase.MOVE: 'move'>, <Player.ZERO: 0>)
>>> state, _ = apply(state, Move(Player.ZERO, ((24, 18), (18, 13))), ScriptedDice([]))
>>> state, events = advance(state, ScriptedDice([2, 1]))  # no cube: ONE's roll is automatic
>>> [event.type for event in events], state.phase, state.turn, state.dice
(['dice_rolled'], <Phase.MOVE: 'move'>, <Player.ONE: 1>, (2, 1))
"""

from __future__ import annotations

from collections.abc import Iterator

from bidak.match.actions import Action
from bidak.match.dice import DiceSource
from bidak.match.events import Event
from bidak.match.machine import Transition, apply
from bidak.match.player import Player
from bidak.match.queries import automatic_action
from bidak.match.state import MatchState

__all__ = ["advance", "automatic_steps"]


def automatic_steps(
    state: MatchState, dice: DiceSource, manual: frozenset[Player] = frozenset()
) -> Iterator[tuple[Action, Transition]]:
    """Each step nobody chooses, in order: the action and what applying it to the state gave.

    Lazy: a step is applied, and its dice drawn, only when the caller asks for it, so a caller
    that stops early (at a game's end, say) leaves the rest untaken and the dice undrawn. The
    last state yielded waits for a decision or is the end of the match; nothing is yielded when
    ``state`` already does. A player in ``manual`` rolls and plays a single legal play
    themselves (:func:`~bidak.match.automatic_action`).
    """
    action = automatic_action(state, manual)
    while action is not None:
        transition = apply(state, action, dice)
        yield action, transition
        state = transition.state
        action = automatic_action(state, manual)


def advance(
    state: MatchState, dice: DiceSource, manual: frozenset[Player] = frozenset()
) -> Transition:
    """Apply every step nobody chooses: the state that waits for a decision, and the events.

    The state is ``state`` itself, with no events, when someone must already decide.
    """
    events: list[Event] = []
    for _, step in automatic_steps(state, dice, manual):
        state = step.state
        events.extend(step.events)
    return Transition(state, tuple(events))
