"""Bots: the action a computer player takes when the match waits for it.

A :class:`Bot` answers ``decide(state, player)`` when ``player`` is ``decider(state)``:

- on roll (``Phase.ROLL``): :class:`~bidak.match.Double` or :class:`~bidak.match.Roll`;
- after rolling (``Phase.MOVE``): a :class:`~bidak.match.Move` whose steps are a legal play;
- doubled (``Phase.DOUBLED``): :class:`~bidak.match.Take` or :class:`~bidak.match.Drop`;
- offered a resignation: :class:`~bidak.match.AcceptResign` when the offer is worth at least
  what the engine expects to win by playing on (gammons, backgammons and the cube included),
  else :class:`~bidak.match.RejectResign`.

Bots never resign, and only double when :func:`~bidak.match.can_double` allows it (Crawford, cube
ownership, rooms with the cube off, 1-point matches). The engine sees the match through
:func:`~bidak.engine.context.context_for`, so the score and the cube shape every decision.

>>> import random
>>> from bidak.match import Phase, Player, RuleSet, new_match
>>> from dataclasses import replace
>>> state = replace(new_match(RuleSet(length=5)), phase=Phase.MOVE, turn=Player.ZERO, dice=(3, 1))
>>> bot = SageBot("expert", random.Random(1))
>>> bot.decide(state, Player.ZERO)
Move(player=<Player.ZERO: 0>, steps=((8, 5), (6, 5)))
"""

from __future__ import annotations

import random
import threading
from collections.abc import Sequence
from typing import Protocol

from bidak.engine.bots_choice import choose_play, wants_double, wants_take
from bidak.engine.context import context_for
from bidak.engine.engines import Engines as Engines  # re-exported: callers import it here
from bidak.engine.engines import shared_engines as shared_engines
from bidak.engine.levels import QUICK, STYLES, Level, Style
from bidak.engine.sage import Evaluator, RankedPlay, won_equity
from bidak.errors import IllegalAction
from bidak.match import (
    AcceptResign,
    Action,
    Double,
    Drop,
    MatchState,
    Move,
    Phase,
    Player,
    RejectResign,
    Roll,
    Take,
    can_double,
    current_plays,
    decider,
)
from bidak.rules import Play


class Bot(Protocol):
    """Anything that plays a seat: returns the action ``player`` takes in ``state``."""

    def decide(self, state: MatchState, player: Player) -> Action: ...


class SageBot:
    """A bot of one :class:`Level` (or any :class:`Style`) on the Open Sage engine.

    ``rng`` is the bot's only source of randomness: a seeded bot fed the same states decides the
    same. Each decision draws exactly one number from it, so decisions do not depend on how
    much randomness the ones before needed. Safe to call from worker threads.
    """

    def __init__(
        self,
        level: Level | str,
        rng: random.Random,
        *,
        style: Style | None = None,
        engines: Engines | None = None,
    ) -> None:
        self.level = Level.parse(level)
        self.style = STYLES[self.level] if style is None else style
        self._rng = rng
        self._rng_lock = threading.Lock()
        self._engines = shared_engines() if engines is None else engines
        self._first: dict[tuple[int, Player], Action] = {}
        """The play chosen at the bot's own ply for a decision it is looking at deeper, by the
        decision's state (its ``id``, alive while the decision runs) and player."""
        self._first_lock = threading.Lock()

    def __repr__(self) -> str:
        return f"SageBot({self.level.value!r}, style={self.style!r})"

    @property
    def evaluator(self) -> Evaluator:
        return self._engines.evaluator(self.style.ply)

    @property
    def _cube_evaluator(self) -> Evaluator:
        return self._engines.evaluator(self.style.cube_ply)

    def decide(self, state: MatchState, player: Player) -> Action:
        """The action ``player`` takes now; raises ``IllegalAction`` if it is not theirs to take.

        Blocks while the engine thinks (Beginner and Normal: about a millisecond; Expert: tens of
        milliseconds, up to seconds where it looks deeper, ``docs/analysis.md``); a server calls
        it through :func:`bidak.engine.workers.decide_async`, whose budget falls back to the
        play of the bot's own ply (:meth:`first_answer`) or to the 1-ply best if a search
        overruns.
        """
        if decider(state) is not player:
            raise IllegalAction(f"Player {player.value} has nothing to decide now")
        with self._rng_lock:
            rng = random.Random(self._rng.getrandbits(64))
        match state.phase:
            case Phase.ROLL:
                return self._on_roll(state, player, rng)
            case Phase.MOVE:
                return Move.of(player, self.choose(state, player, rng))
            case Phase.DOUBLED:
                return self._answer_double(state, player, rng)
            case Phase.RESIGN_OFFERED:
                accept = resign_is_worth_it(state, player, self.evaluator)
                return AcceptResign(player) if accept else RejectResign(player)
            case _:  # pragma: no cover - decider() is None in every other phase
                raise IllegalAction(f"Player {player.value} has nothing to decide now")

    def choose(self, state: MatchState, player: Player, rng: random.Random) -> Play:
        """The legal play the bot makes with the rolled dice (``state`` is in ``MOVE``)."""
        plays = current_plays(state)
        if len(plays) == 1:
            return plays[0]
        assert state.dice is not None
        context = context_for(state, player)
        ranked = self.evaluator.rank(state.position, state.dice, context)
        gap = ranked[1].loss if len(ranked) > 1 else None
        if not self.style.looks_deeper(gap, len(ranked), state.position.is_race()):
            return _pick(state, plays, ranked, self.style, rng)
        assert self.style.deeper is not None
        # The play of this first ranking stays at hand while the deeper one runs: a pool whose
        # budget runs out meanwhile plays it (first_answer), not the cruder 1-ply best. Chosen
        # with a copy of the random numbers, so the deeper choice draws the same ones.
        same = random.Random()
        same.setstate(rng.getstate())
        key = (id(state), player)
        with self._first_lock:
            self._first[key] = Move.of(player, _pick(state, plays, ranked, self.style, same))
        try:
            ranked = self._engines.evaluator(self.style.deeper).rank(
                state.position, state.dice, context
            )
        finally:
            with self._first_lock:
                self._first.pop(key, None)
        return _pick(state, plays, ranked, self.style, rng)

    def first_answer(self, state: MatchState, player: Player) -> Action | None:
        """While the bot looks deeper at ``player``'s play in ``state`` (the same object it was
        asked with), the play its own ply chose; None at any other time. What
        :class:`~bidak.engine.workers.BotPool` plays when the deeper look overruns its budget."""
        with self._first_lock:
            return self._first.get((id(state), player))

    def _on_roll(self, state: MatchState, player: Player, rng: random.Random) -> Action:
        if not can_double(state, player):
            return Roll(player)
        verdict = self._cube_evaluator.cube(state.position, context_for(state, player))
        return Double(player) if wants_double(verdict, self.style, rng) else Roll(player)

    def _answer_double(self, state: MatchState, player: Player, rng: random.Random) -> Action:
        doubler = player.opponent  # on roll; the position is seen by them
        verdict = self._cube_evaluator.cube(state.position, context_for(state, doubler))
        return Take(player) if wants_take(verdict, self.style, rng) else Drop(player)


def _pick(
    state: MatchState,
    plays: Sequence[Play],
    ranked: list[RankedPlay],
    style: Style,
    rng: random.Random,
) -> Play:
    """The legal play of ``plays`` that ``style`` picks from ``ranked``."""
    picked = choose_play(state.position, ranked, style, rng)
    by_result = {play.result: play for play in plays}
    # The engine only ranks legal results (sage.py checks them), so this always finds one.
    return by_result.get(picked.result, plays[0])


def play_on_equity(state: MatchState, player: Player, evaluator: Evaluator) -> float:
    """What ``player`` expects from playing the game on, in the engine's cubeful units.

    Before the roll it is the cube verdict of the player on roll (doubling if they should);
    after the roll, the equity of their best play. Either is turned to ``player``'s side.
    """
    mover = state.turn
    assert mover is not None
    context = context_for(state, mover)
    if state.dice is None:
        verdict = evaluator.cube(state.position, context)
        equity = verdict.double_equity if verdict.should_double else verdict.no_double
    else:
        equity = evaluator.rank(state.position, state.dice, context)[0].equity
    return equity if mover is player else -equity


def resign_is_worth_it(state: MatchState, player: Player, evaluator: Evaluator) -> bool:
    """Whether the resignation on the table gives ``player`` at least what playing on would."""
    offered = won_equity(state.resign_stakes, context_for(state, player))
    return offered >= play_on_equity(state, player, evaluator) - 1e-9


def quick_bot(engines: Engines | None = None) -> SageBot:
    """The engine's 1-ply best, without noise: the cheap answer when time runs out."""
    return SageBot(Level.EXPERT, random.Random(0), style=QUICK, engines=engines)


def instant_action(state: MatchState, player: Player) -> Action:
    """A legal answer with no engine at all: the last resort of a bot out of time.

    Roll rather than double, the first legal play, take, and reject a resignation.
    """
    match state.phase:
        case Phase.MOVE:
            return Move.of(player, current_plays(state)[0])
        case Phase.DOUBLED:
            return Take(player)
        case Phase.RESIGN_OFFERED:
            return RejectResign(player)
        case _:
            return Roll(player)


def make_bot(
    level: Level | str,
    seed: int | str,
    *,
    style: Style | None = None,
    engines: Engines | None = None,
) -> SageBot:
    """A bot of ``level`` (playing ``style`` when given) with its own ``random.Random(seed)``."""
    return SageBot(level, random.Random(seed), style=style, engines=engines)
