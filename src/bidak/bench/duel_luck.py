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

Money games only: a match's share of matches won would need each roll's luck in match-winning
chances at the score, which this does not compute.
"""

from __future__ import annotations

from collections.abc import Iterable

from bidak.engine.hints import shared_evaluator
from bidak.engine.luck import roll_luck
from bidak.engine.review_walk import CheckerSpot, walk
from bidak.engine.sage import Evaluator
from bidak.match import Event, Player


def luck_evaluator() -> Evaluator:
    """The evaluator luck is measured with: the process's 1-ply one."""
    return shared_evaluator("1ply")


def game_luck(events: Iterable[Event], player: Player, evaluator: Evaluator) -> float:
    """The sum of ``player``'s luck (cubeless equity, points of a game) over every roll of the
    games in ``events``: a roll of ``player``'s counts as rolled, the opponent's against."""
    total = 0.0
    for item in walk(events):
        if not isinstance(item, CheckerSpot):
            continue
        state = item.state
        assert state.dice is not None
        luck = roll_luck(
            evaluator, state.position, state.dice, opening=item.opening, cubeless=True
        ).luck
        total += luck if item.player is player else -luck
    return total
