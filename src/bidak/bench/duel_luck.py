"""Luck-adjusted duel results: the same expectation as a duel's points, with less noise.

A game's points are the players' skill plus the dice's luck. The luck of each roll
(:func:`bidak.engine.luck.roll_luck`: the roller's cubeless equity after the roll's best play,
minus the same averaged over every roll that could have come) is added up from one player's
view over a game, and subtracted from that player's points:

    adjusted = points - sum of the player's luck over the game's rolls

Whatever the evaluation (here the engine's 1-ply network, cubeless: :func:`luck_evaluator`),
each roll's luck averages to exactly zero over the rolls that could have come in that position
(21 rolls weighted by their chances; the opening's 15 non-doubles, each with either player to
start), so the adjusted figure has the same expectation as the points: it is a control
variate, as gnubg's variance-reduced rollouts use. How much noise it takes away depends on how
well the network sees a roll's worth; a duel prints both figures, each with its own interval.

In a match (:func:`match_luck`) each roll's luck is the roller's cubeful equity at the score
and cube, turned into match-winning chances (:func:`bidak.engine.sage.match_winning_chance`,
one factor for the whole roll, so it still averages to zero), and it is taken off the share
of matches won. In both, the opening of a game averages to zero over who starts as well: the
same roll for either player, each counted from its own side.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from bidak.engine.context import context_for
from bidak.engine.hints import shared_evaluator
from bidak.engine.luck import roll_luck
from bidak.engine.review_walk import CheckerSpot, walk
from bidak.engine.sage import Evaluator, match_winning_chance
from bidak.match import Event, Player


def luck_evaluator() -> Evaluator:
    """The evaluator luck is measured with: the process's 1-ply one."""
    return shared_evaluator("1ply")


def game_luck(events: Iterable[Event], player: Player, evaluator: Evaluator) -> float:
    """The sum of ``player``'s luck (cubeless equity, points of a game) over every roll of the
    games in ``events``: a roll of ``player``'s counts as rolled, the opponent's against."""

    def luck(spot: CheckerSpot, dice: tuple[int, int]) -> float:
        position = spot.state.position
        return roll_luck(evaluator, position, dice, opening=spot.opening, cubeless=True).luck

    return _summed(events, player, luck)


def match_luck(events: Iterable[Event], player: Player, evaluator: Evaluator) -> float:
    """The sum of ``player``'s luck over every roll of the match in ``events``, in
    match-winning chances (0.01 is one percentage point), measured with the roller's cubeful
    equity at the score, cube and ownership of each roll."""

    def luck(spot: CheckerSpot, dice: tuple[int, int]) -> float:
        context = context_for(spot.state, spot.player)
        rolled = roll_luck(evaluator, spot.state.position, dice, context, opening=spot.opening)
        return match_winning_chance(rolled.actual, context) - match_winning_chance(
            rolled.average, context
        )

    return _summed(events, player, luck)


def _summed(
    events: Iterable[Event],
    player: Player,
    luck: Callable[[CheckerSpot, tuple[int, int]], float],
) -> float:
    """``luck`` of every roll in ``events`` (the roller's view), added up from ``player``'s."""
    total = 0.0
    for item in walk(events):
        if isinstance(item, CheckerSpot):
            assert item.state.dice is not None
            rolled = luck(item, item.state.dice)
            total += rolled if item.player is player else -rolled
    return total
