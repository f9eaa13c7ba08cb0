"""Random complete matches, for tests here and in other layers (formats round trips, the server).

:func:`random_match` plays a whole match with random legal actions: every play of every roll is
equally likely, the cube is offered, taken and dropped, games are resigned, players time out and
forfeit, now and then. The dice and the choices are both seeded, so a seed always gives the same
match. The choices go through :func:`bidak.match.apply` like anyone else's.

>>> from bidak.match import RuleSet, replay
>>> state, events = random_match(3, RuleSet(length=3))
>>> state.phase.value, replay(events) == state
('match_over', True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

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
from bidak.match.checks import fixed_fallback
from bidak.match.dice import SeededDice
from bidak.match.machine import Transition, apply, start_match
from bidak.match.player import Player
from bidak.match.queries import can_double, current_plays, decider
from bidak.match.ruleset import RuleSet
from bidak.match.state import MatchState, Phase

MAX_ACTIONS: Final = 100_000


@dataclass(frozen=True, slots=True)
class Habits:
    """How often the random players do the rarer things (each a probability per chance)."""

    double: float = 0.15
    drop: float = 0.3
    resign: float = 0.005
    accept_resign: float = 0.5
    timeout: float = 0.02
    autoplay: float = 0.005
    forfeit: float = 0.0002


QUIET: Final = Habits(resign=0.0, timeout=0.0, autoplay=0.0, forfeit=0.0)
"""Only rolls, plays and the cube: matches any match file format can hold."""


def random_match(
    seed: int | str, rules: RuleSet | None = None, habits: Habits | None = None
) -> Transition:
    """A complete random match: its final state and every event, ``MatchStarted`` first.

    ``rules`` defaults to a 5-point match with the cube; ``habits`` to :class:`Habits` defaults
    (use :data:`QUIET` for matches without resignations, timeouts or forfeits).
    """
    rules = RuleSet(length=5) if rules is None else rules
    habits = Habits() if habits is None else habits
    dice = SeededDice(f"{seed}:dice")
    choices = random.Random(f"{seed}:choices")
    state, events = start_match(rules)
    log = list(events)
    for _ in range(MAX_ACTIONS):
        if state.phase is Phase.MATCH_OVER:
            return Transition(state, tuple(log))
        state, events = apply(state, random_action(state, choices, habits), dice)
        log.extend(events)
    raise RuntimeError(f"random match {seed!r} did not end in {MAX_ACTIONS} actions")


def random_action(state: MatchState, rng: random.Random, habits: Habits | None = None) -> Action:
    """A random action that is legal in ``state`` (the match must not be over)."""
    habits = Habits() if habits is None else habits
    anyone = rng.choice((Player.ZERO, Player.ONE))
    if rng.random() < habits.forfeit:
        return ForfeitMatch(anyone)
    if rng.random() < habits.autoplay:
        return SetAutoplay(anyone, rng.random() < 0.5)
    if state.phase in (Phase.ROLL, Phase.MOVE) and rng.random() < habits.resign:
        return ResignGame(anyone, rng.randint(1, 3))
    if state.phase is Phase.OPENING:
        return OpeningRoll(anyone)
    action = _decision(state, rng, habits)
    if rng.random() < habits.timeout:
        # The clock's fallback is the fixed one where there is one (a roll, a rejection).
        return Timeout(action.player, fixed_fallback(state, action.player) or action)
    return action


def _decision(state: MatchState, rng: random.Random, habits: Habits) -> Action:
    player = decider(state)
    assert player is not None, f"nobody is to act in phase {state.phase}"
    match state.phase:
        case Phase.ROLL:
            if can_double(state, player) and rng.random() < habits.double:
                return Double(player)
            return Roll(player)
        case Phase.MOVE:
            steps = list(Move.of(player, rng.choice(current_plays(state))).steps)
            rng.shuffle(steps)  # any order of the steps must be accepted
            return Move(player, tuple(steps))
        case Phase.DOUBLED:
            return Drop(player) if rng.random() < habits.drop else Take(player)
        case Phase.RESIGN_OFFERED:
            if rng.random() < habits.accept_resign:
                return AcceptResign(player)
            return RejectResign(player)
        case _:
            raise AssertionError(f"no decision in phase {state.phase}")
