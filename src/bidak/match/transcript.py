"""One readable line per event: match logs for people (the CLI, golden test transcripts).

>>> from bidak.match.events import GameWon, GameEnd
>>> from bidak.match.player import Player
>>> describe(GameWon(Player.ONE, 4, GameEnd.GAMMON, (1, 4)))
'Player 1 wins a gammon: 4 points, score 1-4'
"""

from __future__ import annotations

from collections.abc import Iterable

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
)
from bidak.match.player import Player
from bidak.match.ruleset import OpeningRule

_LEVELS = {1: "a single game", 2: "a gammon", 3: "a backgammon"}
_WINS = {
    GameEnd.SINGLE: "a single game",
    GameEnd.GAMMON: "a gammon",
    GameEnd.BACKGAMMON: "a backgammon",
    GameEnd.DROP: "on a drop",
    GameEnd.RESIGN: "by resignation",
}


_PLAYERS = ("Player 0", "Player 1")


def _dice(dice: tuple[int, int]) -> str:
    return f"{dice[0]}-{dice[1]}"


def _score(score: tuple[int, int]) -> str:
    return f"{score[0]}-{score[1]}"


def describe(event: Event, names: tuple[str, str] = _PLAYERS) -> str:
    """A one-line English description of ``event``, calling the players by ``names``."""

    def _who(player: Player) -> str:
        return names[player]

    match event:
        case MatchStarted(rules=rules):
            starts = "higher" if rules.opening is OpeningRule.HIGHER_STARTS else "lower"
            return (
                f"Match to {rules.length} point{'s' * (rules.length > 1)}"
                f" (cube {'on' if rules.cube else 'off'}, {rules.variant.value},"
                f" {starts} die starts, timeouts: {rules.timeout_policy.value})"
            )
        case GameStarted():
            crawford = " (Crawford game)" if event.crawford else ""
            return f"Game {event.game}, score {_score(event.score)}{crawford}"
        case OpeningTie():
            return f"Opening roll {_dice(event.dice)}: a tie, roll again"
        case OpeningRolled():
            return f"Opening roll {_dice(event.dice)}: {_who(event.starter)} starts"
        case DiceRolled():
            return f"{_who(event.player)} rolls {_dice(event.dice)}"
        case Played():
            if not event.steps:
                return f"{_who(event.player)} cannot play {_dice(event.dice)}"
            return f"{_who(event.player)} plays {_dice(event.dice)}: {event.notation}"
        case Doubled():
            return f"{_who(event.player)} doubles to {event.value}"
        case Taken():
            return f"{_who(event.player)} takes at {event.value}"
        case Dropped():
            return f"{_who(event.player)} drops"
        case ResignOffered():
            return f"{_who(event.player)} offers to resign {_LEVELS[event.stakes]}"
        case ResignAccepted():
            return f"{_who(event.player)} accepts the resignation"
        case ResignRejected():
            return f"{_who(event.player)} rejects the resignation"
        case GameWon():
            plural = "s" * (event.points > 1)
            return (
                f"{_who(event.winner)} wins {_WINS[event.kind]}: {event.points} point{plural},"
                f" score {_score(event.score)}"
            )
        case MatchWon():
            return f"{_who(event.winner)} wins the match {_score(event.score)}"
        case MatchForfeited():
            return f"{_who(event.player)} forfeits the match"
        case TimedOut():
            left = "" if event.left is None else f", {event.left} left"
            return f"{_who(event.player)} runs out of time (timeout {event.strikes}{left})"
        case AutoplayChanged():
            return f"{_who(event.player)} turns autoplay {'on' if event.on else 'off'}"


def transcript(events: Iterable[Event]) -> list[str]:
    """:func:`describe` of each event, in order."""
    return [describe(event) for event in events]
