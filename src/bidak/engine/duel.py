"""Bots playing each other through the match core, with seeded dice.

:func:`play` runs a match (or its first games) between two bots: everything nobody has to decide
(:func:`~bidak.match.automatic_steps`) happens by itself, every other action comes from the bot
in the seat that must act and goes through :func:`~bidak.match.apply` like anyone's.

:func:`duel` measures two bots against each other in points per game with duplicate dice: game
``i`` of A-vs-B and game ``i`` of B-vs-A throw the same dice sequence with the seats swapped, so
each bot gets the rolls the other had, and luck mostly cancels within a pair.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bidak.engine.bots import Bot
from bidak.match import (
    Action,
    DiceSource,
    Event,
    GameWon,
    MatchState,
    Phase,
    Player,
    RuleSet,
    SeededDice,
    apply,
    automatic_steps,
    decider,
    start_match,
)

Observer = Callable[[MatchState, Player, Action], None]
"""Called with the state, the seat and the action of every decision a bot made."""

BotFactory = Callable[[str], Bot]
"""Makes a fresh bot from a seed (so every game of a duel is reproducible on its own)."""

MAX_DECISIONS = 100_000


@dataclass(frozen=True, slots=True)
class Playout:
    """What :func:`play` returns: the last state, every game won on the way and the log."""

    state: MatchState
    games: tuple[GameWon, ...]
    events: tuple[Event, ...] = ()


def play(
    bots: Sequence[Bot],
    rules: RuleSet,
    dice: DiceSource,
    *,
    games: int | None = None,
    observe: Observer | None = None,
    on_game: Callable[[GameWon], None] | None = None,
) -> Playout:
    """Play a match between ``bots[0]`` (seat ZERO) and ``bots[1]``, or only its first ``games``.

    The match stops right after the action that ends it or its last game: the automatic steps
    are taken one at a time (:func:`~bidak.match.automatic_steps`), so the next game's opening
    roll is not thrown.
    """
    state, started = start_match(rules)
    log: list[Event] = list(started)
    won: list[GameWon] = []

    def record(events: tuple[Event, ...]) -> None:
        log.extend(events)
        for event in events:
            if isinstance(event, GameWon):
                won.append(event)
                if on_game is not None:
                    on_game(event)

    def finished() -> bool:
        return state.phase is Phase.MATCH_OVER or (games is not None and len(won) >= games)

    for _ in range(MAX_DECISIONS):
        if finished():
            return Playout(state, tuple(won), tuple(log))
        for _, step in automatic_steps(state, dice):
            state = step.state
            record(step.events)
            if finished():
                return Playout(state, tuple(won), tuple(log))
        player = decider(state)
        assert player is not None, f"nobody acts in phase {state.phase}"
        action = bots[player].decide(state, player)
        if observe is not None:
            observe(state, player, action)
        state, events = apply(state, action, dice)
        record(events)
    raise RuntimeError(f"the match did not end in {MAX_DECISIONS} decisions")


def points_for(game: GameWon, player: Player) -> int:
    """The points ``player`` won (positive) or lost (negative) in ``game``."""
    return game.points if game.winner is player else -game.points


@dataclass(frozen=True, slots=True)
class DuelResult:
    """Points per game of ``first`` against ``second`` over ``pairs`` duplicate-dice pairs."""

    first: str
    second: str
    pairs: int
    per_pair: tuple[float, ...]

    @property
    def mean(self) -> float:
        return statistics.fmean(self.per_pair) if self.per_pair else 0.0

    @property
    def half_width(self) -> float:
        """Half the 95% confidence interval of :attr:`mean` (normal approximation)."""
        if len(self.per_pair) < 2:
            return math.inf
        return 1.96 * statistics.stdev(self.per_pair) / math.sqrt(len(self.per_pair))


def duel(
    names: tuple[str, str],
    makers: tuple[BotFactory, BotFactory],
    pairs: int,
    *,
    seed: int | str = 0,
    length: int = 25,
    on_pair: Callable[[int, float], None] | None = None,
) -> DuelResult:
    """``pairs`` pairs of single games (the first game of a ``length``-point match).

    In game ``i`` of a pair the first bot sits in seat ZERO, in the other in seat ONE, and both
    throw ``SeededDice(f"{seed}:{i}")``. A long match with the cube plays close to money.
    """
    rules = RuleSet(length=length)
    first, second = makers
    scores: list[float] = []
    for i in range(pairs):
        total = 0
        for seat in (Player.ZERO, Player.ONE):
            a = first(f"{seed}:{i}:{names[0]}:{seat.value}")
            b = second(f"{seed}:{i}:{names[1]}:{seat.value}")
            bots = (a, b) if seat is Player.ZERO else (b, a)
            played = play(bots, rules, SeededDice(f"{seed}:{i}"), games=1)
            total += points_for(played.games[0], seat)
        scores.append(total / 2)
        if on_pair is not None:
            on_pair(i, total / 2)
    return DuelResult(names[0], names[1], pairs, tuple(scores))
