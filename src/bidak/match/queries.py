"""Questions about a match state that a server, a bot or a client asks (all pure).

>>> from bidak.match import RuleSet, new_match
>>> state = new_match(RuleSet(length=3))
>>> decider(state) is None, automatic_action(state)
(True, OpeningRoll(player=<Player.ZERO: 0>))
"""

from __future__ import annotations

from typing import Final

from bidak.match.actions import Action, Move, OpeningRoll, Roll
from bidak.match.checks import REFUSALS, allowed_key, decider, refuse_double
from bidak.match.player import Player
from bidak.match.state import MatchState, Phase
from bidak.rules import Play

__all__ = [
    "allowed_actions",
    "automatic_action",
    "can_double",
    "current_plays",
    "decider",
    "forced_play",
]


def allowed_actions(state: MatchState, player: Player) -> frozenset[str]:
    """Names of the actions ``player`` may send now: ``"roll"``, ``"double"``, ``"move"``, ...

    ``"move"`` means some play is expected (see :func:`current_plays` for which).

    >>> from bidak.match import RuleSet, new_match
    >>> sorted(allowed_actions(new_match(RuleSet(length=3)), Player.ONE))
    ['forfeit', 'opening_roll', 'set_autoplay']
    """
    key = allowed_key(state, player)
    found = _ALLOWED.get(key)
    if found is None:
        if len(_ALLOWED) >= KEPT_ALLOWED:  # pragma: no cover - a safeguard
            _ALLOWED.clear()
        found = _ALLOWED[key] = frozenset(
            name for name, refuse in REFUSALS.items() if refuse(state, player) is None
        )
    return found


KEPT_ALLOWED: Final = 50_000
"""Answers :func:`allowed_actions` keeps (a server asks it for every seat of every table it
draws, and the eleven refusals took a third of drawing a table; each part of the key takes a
few values, so the bound is a safeguard)."""
_ALLOWED: dict[tuple[object, ...], frozenset[str]] = {}


def can_double(state: MatchState, player: Player) -> bool:
    """Whether ``player`` may offer a double now (rules.md 7)."""
    return refuse_double(state, player) is None


def current_plays(state: MatchState) -> list[Play]:
    """The legal plays of the current roll, from the mover's view; ``[]`` outside ``MOVE``.

    A roll that cannot be played gives the one empty play.
    """
    if state.phase is not Phase.MOVE or state.dice is None:
        return []
    return list(state.roll_plays())


def forced_play(state: MatchState) -> Play | None:
    """The play if there is exactly one way to play the roll (the empty play included)."""
    plays = current_plays(state)
    return plays[0] if len(plays) == 1 else None


def automatic_action(state: MatchState, manual: frozenset[Player] = frozenset()) -> Action | None:
    """The action nobody has to choose (rules.md 10), for the server to apply in a loop.

    - the opening roll: nobody decides anything, so it is thrown for ``Player.ZERO``;
    - the player on roll who cannot double rolls;
    - a roll with only one way to play it is played.

    A player in ``manual`` rolls and plays a single legal play themselves (a correspondence
    player who did not ask for them to be applied); a roll with no legal play still passes.
    """
    if state.phase is Phase.OPENING:
        return OpeningRoll(Player.ZERO)
    if state.turn is None:
        return None
    mine = state.turn in manual
    if state.phase is Phase.ROLL and not mine and not can_double(state, state.turn):
        return Roll(state.turn)
    if state.phase is Phase.MOVE:
        play = forced_play(state)
        if play is not None and (not mine or not play.steps):
            return Move.of(state.turn, play)
    return None
