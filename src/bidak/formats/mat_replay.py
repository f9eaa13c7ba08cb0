"""Replaying a ``.mat`` match with :mod:`bidak.rules`, to check every action as it is read.

The replay knows only what the file format needs: the position (from the view of the player on
roll), whose turn it is, the cube, and the score. A broken rule raises :class:`Rejected` with a
readable reason; the caller adds where it happened (a line number, or a game and action index).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bidak.errors import BidakError
from bidak.formats.mat_records import (
    MatAction,
    MatDouble,
    MatDrop,
    MatMove,
    MatTake,
    MatWin,
    is_crawford_score,
)
from bidak.formats.notation import resolve_mat_steps
from bidak.rules import Position, Step, Variant, check_dice, legal_plays, outcome

_RESIGN_STAKES: Final = (1, 2, 3)


class Rejected(Exception):
    """An action the match cannot contain; ``str()`` is the reason, without the location."""


@dataclass(frozen=True, slots=True)
class MatchRules:
    """What a replay needs to know about the whole match."""

    length: int
    players: tuple[str, str]
    variant: Variant = Variant.STANDARD
    crawford_rule: bool = True
    jacoby: bool | None = None
    beavers: bool = True

    def name(self, player: int) -> str:
        return self.players[player] or f"player {player}"


class GameReplay:
    """One game, action by action."""

    def __init__(self, rules: MatchRules, score: tuple[int, int], crawford: bool) -> None:
        self.rules = rules
        self.score = score
        self.crawford = crawford
        self.position: Position | None = None  # seen by on_roll; None before the opening
        self.on_roll: int | None = None
        self.may_double = False  # at the start of a turn, before rolling
        self.cube = 1
        self.owner: int | None = None
        self.offers: list[tuple[int, int]] = []  # pending (doubler, value): double, beaver, ...
        self.ended: tuple[int, frozenset[int], str] | None = None  # winner, points, how
        self.result: MatWin | None = None

    # -- dispatch -------------------------------------------------------------------------------

    def apply(self, action: MatAction) -> MatAction:
        """Check one recorded action; returns it as the reader would have produced it."""
        if isinstance(action, MatMove):
            return self.move(action.player, action.dice, action.steps)
        if isinstance(action, MatDouble):
            return self.double(action.player, action.value)
        if isinstance(action, MatTake):
            return self.take(action.player)
        if isinstance(action, MatDrop):
            return self.drop(action.player)
        if isinstance(action, MatWin):
            return self.win(action.player, action.points, claims_match=False)
        raise Rejected(f"{action!r} is not a .mat action")

    # -- actions --------------------------------------------------------------------------------

    def can_play(self, dice: tuple[int, int]) -> bool:
        """Whether the player on roll could play ``dice`` (a roll before a resignation)."""
        position = self.position or Position.initial(self.rules.variant)
        return bool(legal_plays(position, check_dice(dice))[0].steps)

    def move(
        self, player: int, dice: tuple[int, int], written: tuple[tuple[int, int, bool], ...]
    ) -> MatMove:
        self._check_player(player)
        self._check_open()
        name = self.rules.name
        if self.offers:
            if len(self.offers) > 1 and player == self.offers[0][0]:
                self._accept()  # gnubg: a roll after a beaver means the beaver was taken
            else:
                raise Rejected(f"{name(self._responder())} must first take or drop the double")
        try:
            dice = check_dice(dice)
        except BidakError as error:
            raise Rejected(str(error)) from None
        if self.on_roll is None:
            if dice[0] == dice[1]:
                raise Rejected(f"the opening roll cannot be a double, but {name(player)} has one")
            self.on_roll = player
            self.position = Position.initial(self.rules.variant)
        elif player != self.on_roll:
            raise Rejected(f"it is {name(self.on_roll)}'s turn to roll, not {name(player)}'s")
        assert self.position is not None
        try:
            play = resolve_mat_steps(self.position, dice, written)
        except BidakError as error:
            raise Rejected(f"{name(player)} rolls {dice[0]}{dice[1]}: {error}") from None
        finished = outcome(play.result)
        if finished is not None:
            kind = int(finished.kind)
            points = {self.cube * kind}
            jacoby = self.rules.jacoby
            if self.rules.length == 0 and self.cube == 1 and jacoby is not False:
                points = {self.cube} if jacoby else points | {self.cube}
            self.ended = (player, frozenset(points), "bore off the last checker")
        else:
            self.position = play.result.flipped()
            self.on_roll = 1 - player
            self.may_double = True
        return MatMove(player, dice, tuple(Step(*step) for step in play.steps))

    def double(self, player: int, value: int | None) -> MatDouble:
        self._check_player(player)
        self._check_open()
        name = self.rules.name
        if self.on_roll is None:
            raise Rejected("nobody may double before the opening roll")
        if self.offers:
            if player != self._responder():
                raise Rejected(f"{name(player)} cannot redouble their own double")
            if self.rules.length > 0:
                raise Rejected("a beaver (an immediate redouble) is allowed in money play only")
            if not self.rules.beavers:
                raise Rejected("beavers are turned off in this session")
            new = self.offers[-1][1] * 2
        else:
            if player != self.on_roll:
                raise Rejected(f"only {name(self.on_roll)}, who is on roll, may double now")
            if not self.may_double:
                raise Rejected(f"{name(player)} may double only at the start of a turn")
            if self.crawford:
                raise Rejected("nobody may double in the Crawford game")
            if self.owner is not None and self.owner != player:
                raise Rejected(f"{name(player)} doubles, but {name(self.owner)} owns the cube")
            new = self.cube * 2
        if value is not None and value != new:
            raise Rejected(f"the cube goes to {new}, not {value}")
        self.offers.append((player, new))
        self.may_double = False
        return MatDouble(player, new)

    def take(self, player: int) -> MatTake:
        self._answer(player, "take")
        self._accept()
        return MatTake(player)

    def drop(self, player: int) -> MatDrop:
        self._answer(player, "drop")
        doubler, value = self.offers[-1]
        self.offers.clear()
        self.ended = (doubler, frozenset({value // 2}), f"{self.rules.name(player)} dropped")
        return MatDrop(player)

    def win(self, player: int, points: int, *, claims_match: bool) -> MatWin:
        self._check_player(player)
        name = self.rules.name
        if self.result is not None:
            raise Rejected("the game already has a result")
        if type(points) is not int or points < 1:
            raise Rejected(f"a game is worth at least one point, not {points!r}")
        if self.ended is not None:
            winner, allowed, how = self.ended
            if player != winner:
                raise Rejected(f"{name(winner)} won this game ({how}), not {name(player)}")
            if points not in allowed:
                expected = " or ".join(str(n) for n in sorted(allowed))
                raise Rejected(f"{name(winner)} wins {expected} points here ({how}), not {points}")
        elif self.offers:
            raise Rejected(f"the double was never taken or dropped by {name(self._responder())}")
        elif points not in [stakes * self.cube for stakes in _RESIGN_STAKES]:
            raise Rejected(
                f"a resignation is worth 1, 2 or 3 times the cube ({self.cube}), not {points}"
            )
        length = self.rules.length
        if claims_match and not (length and self.score[player] + points >= length):
            raise Rejected(f"'and the match', but {name(player)} has not reached {length} points")
        self.result = MatWin(player, points)
        return self.result

    def finish(self, *, last: bool) -> None:
        """Check the game can end here (the last game of a file may be unfinished)."""
        if self.result is not None:
            return
        if self.ended is not None:
            raise Rejected(f"the game is over ({self.ended[2]}) but no 'Wins' line follows")
        if not last:
            raise Rejected("the game has no result ('Wins' line) but another game follows")

    # -- helpers --------------------------------------------------------------------------------

    def _check_player(self, player: int) -> None:
        if player not in (0, 1) or type(player) is not int:
            raise Rejected(f"player {player!r} is not 0 or 1")

    def _check_open(self) -> None:
        if self.result is not None or self.ended is not None:
            raise Rejected("the game is already over")

    def _responder(self) -> int:
        return 1 - self.offers[-1][0]

    def _answer(self, player: int, verb: str) -> None:
        self._check_player(player)
        self._check_open()
        if not self.offers:
            raise Rejected(f"there is no double to {verb}")
        if player != self._responder():
            raise Rejected(f"{self.rules.name(player)} cannot {verb} their own double")

    def _accept(self) -> None:
        first_doubler = self.offers[0][0]
        last_doubler, value = self.offers[-1]
        self.cube = value
        # A plain double gives the cube to the taker; a beaver or raccoon keeps it with the
        # player who made it (formats.md 8).
        self.owner = 1 - first_doubler if len(self.offers) == 1 else last_doubler
        self.offers.clear()


class MatchReplay:
    """The games of a match in order: numbering, scores, the Crawford game, the match's end."""

    def __init__(self, rules: MatchRules) -> None:
        self.rules = rules
        self.previous: GameReplay | None = None
        self.number = 0
        self.crawford_seen = False

    def start_game(self, number: int, score: tuple[int, int]) -> GameReplay:
        length = self.rules.length
        if number != self.number + 1:
            raise Rejected(f"expected game {self.number + 1}, found game {number}")
        if self.previous is not None:
            self.previous.finish(last=False)
            result = self.previous.result
            assert result is not None
            expected = list(self.previous.score)
            expected[result.player] += result.points
            if length and max(expected) >= length:
                raise Rejected(f"the match was already won {expected[0]}-{expected[1]}")
            if tuple(expected) != score:
                raise Rejected(
                    f"the score before game {number} is {expected[0]}-{expected[1]}"
                    f" after game {self.number}, not {score[0]}-{score[1]}"
                )
        elif length and max(score) >= length:
            raise Rejected(f"score {score[0]}-{score[1]} has already won the match")
        crawford = False
        if self.rules.crawford_rule and not self.crawford_seen:
            crawford = is_crawford_score(length, score)
            self.crawford_seen = crawford
        self.number = number
        self.previous = GameReplay(self.rules, score, crawford)
        return self.previous
