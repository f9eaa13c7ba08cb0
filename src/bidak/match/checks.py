"""Whether an action is allowed now, and if not, why, in words a player can read.

Each kind of action has one *refusal* function: ``None`` when ``player`` may take it now, else the
reason. :func:`check_action` and :func:`bidak.match.allowed_actions` both use them, so what the
client is offered and what the core accepts never disagree.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from bidak.errors import IllegalAction, IllegalPlay
from bidak.match.actions import (
    DECISIONS,
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
from bidak.match.player import Player
from bidak.match.state import MatchState, Phase
from bidak.rules import Play, find_play

MAX_CUBE: Final = 64
"""The highest face of the cube (rules.md 1 and 7)."""

RESIGN_STAKES: Final = (1, 2, 3)


def decider(state: MatchState) -> Player | None:
    """The player who must act now, or ``None`` (the opening roll, the end of the match)."""
    if state.phase in (Phase.ROLL, Phase.MOVE):
        return state.turn
    if state.phase is Phase.DOUBLED and state.turn is not None:
        return state.turn.opponent
    if state.phase is Phase.RESIGN_OFFERED and state.resigner is not None:
        return state.resigner.opponent
    return None


# -- refusals -----------------------------------------------------------------------------------


def _wrong_moment(state: MatchState, player: Player) -> str:
    """What the match is waiting for instead, told to ``player``."""
    mine = decider(state) is player
    match state.phase:
        case Phase.MATCH_OVER:
            return "The match is over"
        case Phase.OPENING:
            return "The game starts with the opening roll"
        case Phase.DOUBLED:
            return "Take or drop the double first" if mine else "Wait for the answer to your double"
        case Phase.RESIGN_OFFERED:
            if mine:
                return "Accept or reject the resignation first"
            return "Wait for the answer to your resignation"
        case Phase.ROLL:
            return "Roll the dice first" if mine else "It is not your turn"
        case Phase.MOVE:
            return "Play your roll first" if mine else "It is not your turn"
        case Phase.BETWEEN_GAMES:
            return "No game is being played"


def refuse_opening_roll(state: MatchState, player: Player) -> str | None:
    if state.phase is Phase.OPENING:
        return None
    if state.phase in (Phase.MATCH_OVER, Phase.BETWEEN_GAMES):
        return _wrong_moment(state, player)
    return "The opening roll has been thrown"


def refuse_roll(state: MatchState, player: Player) -> str | None:
    if state.phase is Phase.ROLL and state.turn is player:
        return None
    if state.phase is Phase.MOVE and state.turn is player:
        return "You have already rolled"
    return _wrong_moment(state, player)


def refuse_move(state: MatchState, player: Player) -> str | None:
    if state.phase is Phase.MOVE and state.turn is player:
        return None
    return _wrong_moment(state, player)


def refuse_double(state: MatchState, player: Player) -> str | None:
    """Why ``player`` may not double now (rules.md 7), or ``None``."""
    if state.phase is Phase.MATCH_OVER:
        return "The match is over"
    if not state.rules.cube:
        return "The cube is off in this room"
    if state.rules.length == 1:
        return "There is no doubling in a 1-point match"
    if state.phase not in (Phase.ROLL, Phase.MOVE):
        return _wrong_moment(state, player)
    if state.turn is not player:
        return "It is not your turn"
    if state.phase is Phase.MOVE:
        return "You can only double before rolling"
    if state.crawford:
        return "No doubling in the Crawford game"
    if state.cube_owner is not None and state.cube_owner is not player:
        return "The cube is not yours to double"
    if state.cube >= MAX_CUBE:
        return f"The cube is already at {MAX_CUBE}"
    if state.autoplay[player]:
        # Auto-play stands in for a person who is away; it never doubles for them (rules.md 9).
        return "Auto-play never doubles: take back control to double"
    return None


def _refuse_answer(state: MatchState, player: Player) -> str | None:
    if state.phase is Phase.DOUBLED:
        return None if decider(state) is player else _wrong_moment(state, player)
    if state.phase in (Phase.MATCH_OVER, Phase.BETWEEN_GAMES):
        return _wrong_moment(state, player)
    return "There is no double to answer"


def refuse_resign(state: MatchState, player: Player) -> str | None:
    if state.phase in (Phase.ROLL, Phase.MOVE):
        return None
    if state.phase is Phase.RESIGN_OFFERED:
        return "A resignation is already on the table"
    if state.phase is Phase.OPENING:
        return "You can resign once the game is under way"
    return _wrong_moment(state, player)


def _refuse_resign_answer(state: MatchState, player: Player) -> str | None:
    if state.phase is Phase.RESIGN_OFFERED:
        return None if decider(state) is player else _wrong_moment(state, player)
    if state.phase in (Phase.MATCH_OVER, Phase.BETWEEN_GAMES):
        return _wrong_moment(state, player)
    return "No resignation is on the table"


def _refuse_if_over(state: MatchState, player: Player) -> str | None:
    if state.phase is Phase.MATCH_OVER:
        return "The match is over"
    return None


Refusal = Callable[[MatchState, Player], "str | None"]

REFUSALS: Final[dict[str, Refusal]] = {
    OpeningRoll.name: refuse_opening_roll,
    Roll.name: refuse_roll,
    Move.name: refuse_move,
    Double.name: refuse_double,
    Take.name: _refuse_answer,
    Drop.name: _refuse_answer,
    ResignGame.name: refuse_resign,
    AcceptResign.name: _refuse_resign_answer,
    RejectResign.name: _refuse_resign_answer,
    ForfeitMatch.name: _refuse_if_over,
    SetAutoplay.name: _refuse_if_over,
}
"""The refusal of each kind of action a player may send, by its name."""


def allowed_key(state: MatchState, player: Player) -> tuple[object, ...]:
    """Everything of ``state`` the refusals of :data:`REFUSALS` read, for ``player``: two
    states with the same key allow the same actions (:func:`bidak.match.allowed_actions`
    keeps its answers by it; ``tests/match/test_allowed_key.py`` checks the two agree). A
    refusal that reads another field must add it here."""
    return (
        player,
        state.phase,
        state.turn,
        state.resigner,
        state.rules.cube,
        state.rules.length == 1,
        state.crawford,
        state.cube_owner,
        state.cube >= MAX_CUBE,
        state.autoplay[player],
    )


# -- checking whole actions -----------------------------------------------------------------------


def check_action(state: MatchState, action: Action) -> None:
    """Raise :class:`~bidak.errors.IllegalAction` (or ``IllegalPlay``) unless ``action`` is allowed.

    Draws no dice and changes nothing: the server may call it before ``apply``.
    """
    checked_play(state, action)


def checked_play(state: MatchState, action: Action) -> Play | None:
    """:func:`check_action` that also gives back the legal play a ``Move`` names (directly or as
    a timeout's fallback), so that ``apply`` does not look it up again; ``None`` for the others.
    """
    if not isinstance(action.player, Player):
        raise IllegalAction(f"{action.player!r} is not a player of this match")
    if isinstance(action, Timeout):
        return _check_timeout(state, action)
    refusal = REFUSALS[action.name](state, action.player)
    if refusal is not None:
        raise IllegalAction(refusal)
    if isinstance(action, Move):
        return resolve_play(state, action)
    if isinstance(action, ResignGame):
        if type(action.stakes) is not int or action.stakes not in RESIGN_STAKES:
            raise IllegalAction(
                "You can resign a single game (1), a gammon (2) or a backgammon (3)"
            )
    elif isinstance(action, SetAutoplay) and type(action.on) is not bool:
        raise IllegalAction("Autoplay is either on or off")
    return None


def _check_timeout(state: MatchState, action: Timeout) -> Play | None:
    if state.phase is Phase.MATCH_OVER:
        raise IllegalAction("The match is over")
    if decider(state) is not action.player:
        raise IllegalAction(f"Player {action.player.value} is not on the clock")
    fallback = action.fallback
    if not isinstance(fallback, DECISIONS):
        raise IllegalAction(
            "A timeout falls back to a roll, a play, or an answer to a double or a resignation"
        )
    if fallback.player is not action.player:
        raise IllegalAction("A timeout falls back to an action of the player who timed out")
    play = checked_play(state, fallback)
    # Where the fallback is fixed (rules.md 9), it is that one: a roll, never a double; a
    # resignation is rejected.
    fixed = fixed_fallback(state, action.player)
    if fixed is not None and fallback != fixed:
        if isinstance(fixed, Roll):
            raise IllegalAction("A timeout never doubles: it rolls the dice")
        raise IllegalAction("A timeout rejects the resignation on the table")
    return play


def fixed_fallback(state: MatchState, player: Player) -> Roll | RejectResign | None:
    """What is played for ``player`` when they are away (their clock ran out, or auto-play is
    on) and the rules leave nothing to choose (rules.md 9): at the roll decision a roll, never a
    double; a resignation on the table is rejected. ``None`` otherwise: a play or an answer to a
    double is chosen by a bot.
    """
    if decider(state) is not player:
        return None
    if state.phase is Phase.ROLL:
        return Roll(player)
    if state.phase is Phase.RESIGN_OFFERED:
        return RejectResign(player)
    return None


def resolve_play(state: MatchState, action: Move) -> Play:
    """The legal play ``action`` names for the current roll; raises ``IllegalPlay`` if none."""
    refusal = refuse_move(state, action.player)
    if refusal is not None:
        raise IllegalAction(refusal)
    assert state.dice is not None
    steps = action.steps
    if not isinstance(steps, tuple | list) or not all(
        isinstance(step, tuple | list)
        and len(step) == 2
        and all(type(point) is int for point in step)
        for step in steps
    ):
        raise IllegalPlay("A play is a list of steps, each a start and an end point")
    # Playing the steps from the highest start down never needs a checker that is not there
    # yet, so any order the player gives works (rules.md 10: the order is theirs).
    ordered = sorted(((start, end) for start, end in steps), reverse=True)
    return find_play(state.position, state.dice, ordered, state.roll_plays())
