"""Hints: what the engine would do here, as plain data the terminal and the browser can draw.

- :func:`play_hint`: every legal play of a roll, best first, each with its :class:`Play`, its
  notation and steps, cubeful equity, cubeless chances and the equity it gives up against the
  best;
- :func:`cube_hint`: the cube verdict before a roll (no double / double-take / double-pass
  equities and the right action for the doubler and for the taker);
- :func:`state_hint`: whichever of the two a match state asks for: the plays in ``MOVE``, the
  cube in ``ROLL`` (when the player on roll may double) and in ``DOUBLED`` (for the taker).

Depth is ``"1ply"`` (the raw network, milliseconds), ``"2ply"`` or ``"3ply"`` (XG's
convention). Equities are the engine's normalised units from the view of the player on roll:
+1 is winning the cube's worth (in a match, on the linear match-winning-chance scale).
Every result is a frozen dataclass whose ``to_json()`` gives JSON-ready dicts and lists.

>>> from bidak.rules import Position
>>> hint = play_hint(Position.initial(), (3, 1), ply="1ply")
>>> hint.candidates[0].notation, hint.candidates[0].loss
('8/5 6/5', 0.0)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from bidak.engine.context import context_for
from bidak.engine.engines import shared_engines
from bidak.engine.sage import (
    PLIES,
    Context,
    CubeOwner,
    CubeVerdict,
    EngineError,
    Evaluator,
    Probabilities,
)
from bidak.match import MatchState, Phase, can_double, played_steps
from bidak.match.checks import MAX_CUBE
from bidak.rules import Play, Position, legal_plays, outcome

JSON = dict[str, Any]


def shared_evaluator(ply: str) -> Evaluator:
    """The process's :class:`Evaluator` for ``ply`` (:mod:`bidak.engine.engines` owns them)."""
    return shared_engines().evaluator(check_ply(ply))


def check_ply(ply: str) -> str:
    """``ply`` if it is a depth the engine knows, else :class:`EngineError`."""
    if ply not in PLIES:
        raise EngineError(f"unknown engine depth {ply!r}; use one of {', '.join(PLIES)}")
    return ply


def check_playable(position: Position) -> None:
    """Refuse a position whose game is already over: there is nothing left to decide."""
    if outcome(position) is not None:
        raise EngineError(f"the game is over in this position ({position.position_id})")


def probabilities_json(probabilities: Probabilities) -> JSON:
    return {
        "win": probabilities.win,
        "win_gammon": probabilities.win_gammon,
        "win_backgammon": probabilities.win_backgammon,
        "lose_gammon": probabilities.lose_gammon,
        "lose_backgammon": probabilities.lose_backgammon,
    }


_OWNERS: Final = {
    CubeOwner.CENTRED: "centred",
    CubeOwner.MOVER: "mover",
    CubeOwner.OPPONENT: "opponent",
}
"""Who holds the cube, as the JSON says it (seen from the player on roll)."""


def context_json(context: Context) -> JSON:
    return {
        "cube": context.cube,
        "owner": _OWNERS[context.owner],
        "away": list(context.away),
        "crawford": context.crawford,
    }


# -- checker play --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Candidate:
    """One legal play as the engine ranks it; ``rank`` 1 is the best."""

    rank: int
    play: Play
    equity: float
    cubeless_equity: float
    loss: float
    probabilities: Probabilities
    ply: str

    @property
    def notation(self) -> str:
        return str(self.play)

    @property
    def steps(self) -> tuple[tuple[int, int, bool], ...]:
        return played_steps(self.play)

    def to_json(self) -> JSON:
        return {
            "rank": self.rank,
            "notation": self.notation,
            "steps": [list(step) for step in self.steps],
            "result": self.play.result.position_id,
            "equity": self.equity,
            "cubeless_equity": self.cubeless_equity,
            "loss": self.loss,
            "probabilities": probabilities_json(self.probabilities),
            "level": self.ply,
        }


@dataclass(frozen=True, slots=True)
class PlayHint:
    """The ranked plays of ``dice`` in ``position`` (mover's view), best first."""

    position: Position
    dice: tuple[int, int]
    context: Context
    ply: str
    candidates: tuple[Candidate, ...]

    @property
    def best(self) -> Candidate:
        return self.candidates[0]

    def to_json(self) -> JSON:
        return {
            "kind": "plays",
            "position_id": self.position.position_id,
            "dice": list(self.dice),
            "context": context_json(self.context),
            "level": self.ply,
            "candidates": [candidate.to_json() for candidate in self.candidates],
        }


def play_hint(
    position: Position,
    dice: tuple[int, int],
    context: Context | None = None,
    ply: str = "2ply",
    *,
    evaluator: Evaluator | None = None,
) -> PlayHint:
    """Every legal play of ``dice``, ranked by the engine at ``ply`` (or by ``evaluator``); a
    race's plays asked at ``2ply`` are ranked at :data:`RACE_PLY` (:func:`play_ply`).

    ``context`` defaults to a money game with the cube centred at 1.
    """
    check_playable(position)
    context = context or Context()
    engine = evaluator or shared_evaluator(play_ply(ply, position.is_race()))
    by_result = {play.result: play for play in legal_plays(position, dice)}
    ranked = engine.rank(position, dice, context)
    candidates = tuple(
        Candidate(
            rank,
            by_result[found.result],
            found.equity,
            found.cubeless_equity,
            found.loss,
            found.probabilities,
            found.ply,
        )
        for rank, found in enumerate(ranked, 1)
        if found.result in by_result
    )
    if len(candidates) != len(by_result):
        raise EngineError(
            f"the engine ranked {len(candidates)} of the {len(by_result)} legal plays of"
            f" {dice[0]}-{dice[1]} ({position.position_id})"
        )
    return PlayHint(position, dice, context, engine.ply, candidates)


RACE_PLY: Final = "3ply"
"""The depth a race's checker plays are ranked at when ``2ply`` is asked for, by hints and
reviews alike: bgsage's ``2ply`` misjudges races where a checker must still escape a backgammon
(it advised a play 0.74 points worse, ``docs/analysis.md``, "Races at 3-ply"), and ``3ply``
costs milliseconds there; the Expert plays races at it too (``Style.races``)."""


def play_ply(ply: str, race: bool) -> str:
    """The depth a checker play is ranked at when ``ply`` is asked for: :data:`RACE_PLY` for
    a race asked at ``2ply``, ``ply`` itself otherwise (1-ply sees those races as 3-ply does).

    >>> play_ply("2ply", race=True), play_ply("2ply", race=False), play_ply("1ply", race=True)
    ('3ply', '2ply', '1ply')
    """
    return RACE_PLY if race and ply == "2ply" else ply


# -- cube ----------------------------------------------------------------------------------------


class CubeAction(StrEnum):
    """The engine's verdict on a cube decision, as the doubler's and the taker's right actions."""

    NO_DOUBLE_TAKE = "no_double_take"
    DOUBLE_TAKE = "double_take"
    DOUBLE_PASS = "double_pass"
    TOO_GOOD_PASS = "too_good_pass"

    @property
    def label(self) -> str:
        return _LABELS[self]


_LABELS = {
    CubeAction.NO_DOUBLE_TAKE: "No double, take",
    CubeAction.DOUBLE_TAKE: "Double, take",
    CubeAction.DOUBLE_PASS: "Double, pass",
    CubeAction.TOO_GOOD_PASS: "Too good to double, pass",
}


def cube_action(verdict: CubeVerdict) -> CubeAction:
    """The verdict in words: whether to double, and whether a double should be taken.

    Not doubling when the double would be passed means the doubler is too good to double
    (no double is worth more than the point the pass gives).
    """
    if verdict.should_double:
        return CubeAction.DOUBLE_TAKE if verdict.should_take else CubeAction.DOUBLE_PASS
    return CubeAction.NO_DOUBLE_TAKE if verdict.should_take else CubeAction.TOO_GOOD_PASS


@dataclass(frozen=True, slots=True)
class CubeHint:
    """The cube decision before a roll, from the view of the player on roll (the doubler).

    ``for_taker``: the question is the taker's (a double is pending): take or drop.
    ``available``: the player on roll may double now (else the figures are for information).
    """

    position: Position
    context: Context
    verdict: CubeVerdict
    for_taker: bool = False
    available: bool = True

    @property
    def action(self) -> CubeAction:
        return cube_action(self.verdict)

    @property
    def right_action(self) -> str:
        """What the player who decides should do: ``double``/``no_double`` or ``take``/``drop``."""
        if self.for_taker:
            return "take" if self.verdict.should_take else "drop"
        return "double" if self.verdict.should_double else "no_double"

    def to_json(self) -> JSON:
        verdict = self.verdict
        return {
            "kind": "cube",
            "position_id": self.position.position_id,
            "context": context_json(self.context),
            "level": verdict.ply,
            "for_taker": self.for_taker,
            "available": self.available,
            "no_double": verdict.no_double,
            "double_take": verdict.double_take,
            "double_pass": verdict.double_pass,
            "best_equity": verdict.best_equity,
            "should_double": verdict.should_double,
            "should_take": verdict.should_take,
            "action": self.action.value,
            "label": self.action.label,
            "right_action": self.right_action,
            "probabilities": probabilities_json(verdict.probabilities),
        }


def cube_hint(
    position: Position,
    context: Context | None = None,
    ply: str = "2ply",
    *,
    for_taker: bool = False,
    available: bool = True,
    evaluator: Evaluator | None = None,
) -> CubeHint:
    """The engine's cube verdict for the player on roll in ``position`` before rolling."""
    check_playable(position)
    context = context or Context()
    engine = evaluator or shared_evaluator(ply)
    return CubeHint(position, context, engine.cube(position, context), for_taker, available)


def cube_available(context: Context) -> bool:
    """Whether doubling is a live option for the player on roll in ``context``.

    As gnubg's ``GetDPEq``: not in the Crawford game, not while the opponent owns the cube, and
    in a match only while the cube is below what the player still needs (past that a win at
    the current cube already takes the match, so doubling changes nothing; the post-Crawford
    leader is the case ``away = 1``). Bidak's rules also stop at the highest cube face.
    """
    if context.crawford or context.owner is CubeOwner.OPPONENT or context.cube >= MAX_CUBE:
        return False
    away = context.away[0]
    return context.away == (0, 0) or context.cube < away


# -- a match state -------------------------------------------------------------------------------


def state_hint(
    state: MatchState, ply: str = "2ply", *, evaluator: Evaluator | None = None
) -> PlayHint | CubeHint | None:
    """The hint for the decision ``state`` waits for; ``None`` when there is none to give.

    ``MOVE``: the ranked plays of the roll. ``ROLL`` with the cube available: the doubler's
    cube verdict (``None`` when the player can only roll). ``DOUBLED``: the same verdict, put
    as the taker's question. Every other phase: ``None``. A race's plays asked at ``2ply`` are
    ranked at :data:`RACE_PLY`.
    """
    player = state.turn
    if player is None:
        return None
    context = context_for(state, player)
    if state.phase is Phase.MOVE and state.dice is not None:
        return play_hint(state.position, state.dice, context, ply, evaluator=evaluator)
    engine = evaluator or shared_evaluator(ply)
    if state.phase is Phase.ROLL and can_double(state, player):
        available = cube_available(context)
        return cube_hint(state.position, context, available=available, evaluator=engine)
    if state.phase is Phase.DOUBLED:
        return cube_hint(state.position, context, for_taker=True, evaluator=engine)
    return None
