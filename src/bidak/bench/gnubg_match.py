"""``bidak bench bots --against gnubg --match-length L``: cubeful matches against GNU Backgammon.

Pair ``i`` plays one whole ``L``-point match twice, the cube on and the Crawford rule as in
Bidak's rooms (``RuleSet(length=L)``), with the same dice stream ``SeededDice(f"{seed}:{i}")``
and the seats swapped. Dice are only drawn at rolls (the opening rolls included), never at a
cube action, so both matches of a pair throw the same sequence of rolls whatever is doubled;
where a game ends sooner in one match than in the other, the rolls that follow go to the next
game there. The pair scores Bidak's share of its two matches (0, 0.5 or 1); the mean over the
pairs, with a 95% confidence interval, is the match-winning share, and the mean of Bidak's
final score minus gnubg's the margin.

Bidak's seat is its bot, deciding everything as in a room (double, take or drop, checker play,
an answer to a resignation). gnubg's seat (:class:`MatchGnubgBot`) plays gnubg's cubeful
choice at the score and cube, and doubles and takes as :mod:`bidak.bench.gnubg_worker` derives
from gnubg's cubeful evaluations at the same ply (the derivation is in that module's
docstring); it never resigns and refuses resignations, which bots never offer.

Where the equity went, by kind of decision: checker plays by phase as in money games, ``double``
(every decision of a player on roll who may double: double or roll) and ``take`` (every answer to
a double). At each of them, whoever's it is, the other engine is asked too; where they differ,
gnubg at ``judge_ply`` charges the difference to the engine whose choice it ranks lower: checker
plays by the mover's match-winning chance after each (cubeful: the opponent on roll with their
cube), cube decisions by no double, double/take and double/pass at that ply. In matches the
figures are match-winning chances (0.01 is one percentage point).
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bidak.bench.duel_luck import luck_evaluator, match_luck
from bidak.bench.gnubg_duel import (
    PHASES,
    GnubgBot,
    Ledger,
    PairResult,
    Settings,
    Watched,
    seated,
)
from bidak.bench.gnubg_process import GnubgProcess
from bidak.engine.bots import Bot, make_bot
from bidak.engine.duel import play
from bidak.engine.levels import Level
from bidak.match import (
    Action,
    Double,
    Drop,
    MatchState,
    Phase,
    Player,
    Roll,
    RuleSet,
    SeededDice,
    Take,
)
from bidak.rules import Play, Side, outcome

KINDS = (*PHASES, "double", "take")
"""The kinds of decision of a match duel's ledger."""


def match_view(state: MatchState, player: Player | None = None) -> dict[str, Any]:
    """The match and cube of ``state`` seen by ``player`` (by default the player on roll), as
    the worker reads them: the owner is 1 for that player, 0 for the opponent, -1 centred."""
    who = state.turn if player is None else player
    assert who is not None, "nobody is on roll"
    owner = -1 if state.cube_owner is None else int(state.cube_owner is who)
    return {
        "length": state.rules.length,
        "score": [state.score[who], state.score[who.opponent]],
        "cube": state.cube,
        "owner": owner,
        "crawford": state.crawford,
    }


@dataclass(frozen=True, slots=True)
class CubeView:
    """gnubg's cube decision of the player on roll before rolling, in that player's
    match-winning chances."""

    no_double: float
    double_take: float
    double_pass: float
    double: bool
    take: bool

    def worth(self, kind: str, yes: bool) -> float:
        """What doubling (or not) is worth to the doubler, or taking (or not) to the taker."""
        if kind == "double":
            return min(self.double_take, self.double_pass) if yes else self.no_double
        return 1.0 - (self.double_take if yes else self.double_pass)


class MatchGnubgBot(GnubgBot):
    """A seat played by GNU Backgammon at ``ply`` in a match: cubeful plays, its own cube."""

    def cube(self, state: MatchState, ply: int | None = None) -> CubeView:
        """gnubg's cube decision for the player on roll (who doubles, or has doubled)."""
        reply = self.gnubg.ask(
            {
                "op": "cube",
                "id": state.position.position_id,
                "ply": self.ply if ply is None else ply,
                "match": match_view(state),
            }
        )
        return CubeView(
            float(reply["nd"]),
            float(reply["dt"]),
            float(reply["dp"]),
            bool(reply["double"]),
            bool(reply["take"]),
        )

    def _move_request(self, state: MatchState) -> dict[str, Any]:
        return {**super()._move_request(state), "match": match_view(state)}

    def worth(self, state: MatchState, play: Play, ply: int) -> float:
        """The mover's match-winning chance after ``play``, the opponent then on roll with
        the cube, in gnubg's eyes at ``ply``."""
        mover = state.turn
        assert mover is not None
        done = outcome(play.result)
        if done is not None:
            assert done.winner is Side.MOVER  # a play only ever ends the game for its maker
            request = {"op": "won", "points": int(done.kind), "match": match_view(state)}
            return float(self.gnubg.ask(request)["mwc"])
        request = {
            "op": "value",
            "id": play.result.flipped().position_id,
            "ply": ply,
            "match": match_view(state, mover.opponent),
        }
        return 1.0 - float(self.gnubg.ask(request)["mwc"])

    def decide(self, state: MatchState, player: Player) -> Action:
        if state.phase is Phase.ROLL:  # asked only when the rules let ``player`` double
            return Double(player) if self.cube(state).double else Roll(player)
        if state.phase is Phase.DOUBLED:
            return Take(player) if self.cube(state).take else Drop(player)
        return super().decide(state, player)


class MatchWatched(Watched):
    """A seat of a match duel, watched at its checker plays and its cube decisions."""

    def __init__(
        self,
        inner: Bot,
        is_bidak: bool,
        gnubg: MatchGnubgBot,
        opinion: Bot,
        judge_ply: int,
        ledger: Ledger,
    ) -> None:
        super().__init__(inner, is_bidak, gnubg, opinion, judge_ply, ledger)

    @property
    def rival(self) -> MatchGnubgBot:
        """The gnubg seat, as the match bot it was given as."""
        assert isinstance(self.gnubg, MatchGnubgBot)
        return self.gnubg

    def watch(self, state: MatchState, player: Player, action: Action) -> None:
        if state.phase not in (Phase.ROLL, Phase.DOUBLED):
            super().watch(state, player, action)
            return
        kind = "double" if state.phase is Phase.ROLL else "take"
        said = isinstance(action, (Double, Take))
        self.ledger.decisions[kind] += 1
        if self.is_bidak:
            view = self.rival.cube(state)
            other = view.double if kind == "double" else view.take
        else:
            other = isinstance(self.opinion.decide(state, player), (Double, Take))
        if other == said:
            return
        self.ledger.disagreed[kind] += 1
        judged = self.rival.cube(state, self.judge_ply)
        bidak, gnubg = (said, other) if self.is_bidak else (other, said)
        self.charge(kind, judged.worth(kind, bidak) - judged.worth(kind, gnubg))


@dataclass(frozen=True, slots=True)
class MatchEnd:
    """How one match of a pair ended, from Bidak's side."""

    bidak_won: bool
    bidak: int
    gnubg: int


def score_pair(ends: Sequence[MatchEnd]) -> tuple[float, float]:
    """A pair's share of matches Bidak won, and Bidak's mean final score minus gnubg's.

    >>> score_pair([MatchEnd(True, 5, 3), MatchEnd(False, 2, 6)])
    (0.5, -1.0)
    """
    share = sum(end.bidak_won for end in ends) / len(ends)
    return share, statistics.fmean(end.bidak - end.gnubg for end in ends)


def play_match_pair(settings: Settings, index: int, gnubg: GnubgProcess) -> PairResult:
    """Pair ``index``: one match, the same dice twice, Bidak in seat ZERO then in seat ONE."""
    rules = RuleSet(length=settings.length)
    rival = MatchGnubgBot(gnubg, settings.ply)
    ledger = Ledger.of(KINDS)
    level = Level.parse(settings.level)
    style = settings.bot_style
    ends: list[MatchEnd] = []
    luck = 0.0
    for seat in (Player.ZERO, Player.ONE):
        bidak = make_bot(level, f"{settings.seed}:{index}:{seat.value}", style=style)
        opinion = make_bot(level, f"{settings.seed}:{index}:{seat.value}:opinion", style=style)
        watched_bidak = MatchWatched(bidak, True, rival, opinion, settings.judge_ply, ledger)
        watched_gnubg = MatchWatched(rival, False, rival, opinion, settings.judge_ply, ledger)
        bots = seated(seat, watched_bidak, watched_gnubg)
        played = play(bots, rules, SeededDice(f"{settings.seed}:{index}"))
        final = played.state
        ends.append(MatchEnd(final.winner is seat, final.score[seat], final.score[seat.opponent]))
        luck += match_luck(played.events, seat, luck_evaluator())
    share, margin = score_pair(ends)
    return PairResult(index, share, ledger.as_json(), margin, luck / 2)
