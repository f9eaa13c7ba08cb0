"""Legal plays for a roll (rules.md sections 3, 4 and 5).

``legal_plays(position, dice)`` returns every distinct legal play, distinct by the position it
leads to, obeying:

- each die moves one checker exactly that many points onto an open point (rules.md 3);
- doubles give four steps (rules.md 3);
- checkers on the bar enter first, a die of n on the mover's point 25 - n (rules.md 4);
- bearing off only with all fifteen checkers home; a die larger than the highest occupied point
  bears off from that point, but only when no checker stands higher (rules.md 5);
- the maximum-use rule: play as many dice as possible, and if only one of two dice can be played,
  the larger one when possible (rules.md 3, also for bearing off, rules.md 5).

The search walks steps on a mutable 26-slot board (``b[1..24]`` the mover's points, ``b[25]`` the
mover's bar, ``b[0]`` the opponent's bar) and keeps one play per resulting board.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from bidak.errors import AmbiguousPlay, IllegalPlay, InvalidDice
from bidak.rules.notation import point_name
from bidak.rules.position import Position


class Step(NamedTuple):
    """One checker moving by one die: from ``start`` to ``end`` (``BAR`` = 25, ``OFF`` = 0)."""

    start: int
    end: int
    hit: bool


@dataclass(frozen=True, slots=True)
class Play:
    """The whole play of one roll: its steps in order and the position it leads to.

    ``result`` is still seen from the mover's view (the turn has not passed yet).
    """

    steps: tuple[Step, ...]
    result: Position

    def __str__(self) -> str:
        from bidak.rules.notation import format_steps

        return format_steps(self.steps)

    @property
    def dice_used(self) -> int:
        return len(self.steps)

    @classmethod
    def parse(cls, text: str, position: Position, dice: tuple[int, int]) -> Play:
        """The legal play that ``text`` (standard notation) names for this position and roll.

        >>> str(Play.parse("8/5 6/5", Position.initial(), (3, 1)))
        '8/5 6/5'
        """
        from bidak.rules.notation import resolve

        return resolve(text, position, dice)


def check_dice(dice: tuple[int, int]) -> tuple[int, int]:
    """Return ``dice`` as a pair of ints 1..6 or raise :class:`InvalidDice`."""
    if (
        not isinstance(dice, tuple | list)
        or len(dice) != 2
        or any(type(d) is not int or not 1 <= d <= 6 for d in dice)
    ):
        raise InvalidDice(f"dice must be two numbers from 1 to 6, not {dice!r}")
    return int(dice[0]), int(dice[1])


def legal_plays(position: Position, dice: tuple[int, int]) -> list[Play]:
    """Every distinct legal play of ``dice`` in ``position``.

    A roll that cannot be played at all gives one play with no steps ("dance", rules.md 3 and 4),
    whose result is the position itself; the list is never empty.

    >>> start = Position.initial()
    >>> sorted(str(play) for play in legal_plays(start, (6, 5)))[:3]
    ['13/2', '13/7 8/3', '13/8 13/7']
    >>> len(legal_plays(start, (3, 1)))
    16
    """
    return _plays(position, dice, None)[0]


def _plays(
    position: Position, dice: tuple[int, int], ways: _Ways | None
) -> tuple[list[Play], list[tuple[int, ...]]]:
    """The legal plays and, for each, the search's key of its result (the board as a tuple)."""
    d1, d2 = check_dice(dice)
    board = [position.bar.opponent, *position.points, position.bar.mover]
    if d1 == d2:
        found = _doubles(board, d1, ways)
    else:
        found = _two_dice(board, d1, d2, ways) if d1 > d2 else _two_dice(board, d2, d1, ways)
    unchecked = Position._unchecked
    keys = list(found)
    plays = [_make_play(found[key], unchecked(key[1:25], key[25], key[0])) for key in keys]
    return plays, keys


_set_steps = Play.__dict__["steps"].__set__
_set_result = Play.__dict__["result"].__set__


def _make_play(steps: tuple[Step, ...], result: Position) -> Play:
    """Build a play the search produced (valid by construction) without the dataclass checks."""
    play = object.__new__(Play)
    _set_steps(play, steps)
    _set_result(play, result)
    return play


_Found = dict[tuple[int, ...], tuple[Step, ...]]
_Ways = dict[tuple[int, ...], list[tuple[Step, ...]]]
_new_step = tuple.__new__


def _steps(b: list[int], die: int, limit: int) -> list[Step]:
    """Every single step of ``die`` on board ``b`` whose start is at most ``limit``."""
    if b[25]:
        # Checkers on the bar enter first, on the mover's point 25 - die (rules.md 4).
        end = 25 - die
        if limit == 25 and b[end] >= -1:
            return [_new_step(Step, (25, end, b[end] == -1))]
        return []
    found: list[Step] = []
    for start in range(24 if limit > 24 else limit, die, -1):
        if b[start] > 0:
            target = b[start - die]
            if target >= -1:
                found.append(_new_step(Step, (start, start - die, target == -1)))
    top = 24
    while top and b[top] <= 0:
        top -= 1
    if top <= 6:
        # Bearing off (rules.md 5): exactly from the die's point, or with a larger die from the
        # highest occupied point when no checker stands higher.
        if die <= limit and b[die] > 0:
            found.append(_new_step(Step, (die, 0, False)))
        elif 0 < top < die and top <= limit:
            found.append(_new_step(Step, (top, 0, False)))
    return found


def _apply(b: list[int], step: Step) -> None:
    start, end, hit = step
    b[start] -= 1
    if end:
        if hit:
            b[end] = 1
            b[0] += 1
        else:
            b[end] += 1


def _undo(b: list[int], step: Step) -> None:
    start, end, hit = step
    b[start] += 1
    if end:
        if hit:
            b[end] = -1
            b[0] -= 1
        else:
            b[end] -= 1


def _two_dice(b: list[int], high: int, low: int, ways: _Ways | None = None) -> _Found:
    """Plays of a non-double roll, with the maximum-use and larger-die rules (rules.md 3).

    With ``ways``, every pair of steps that reaches each result is added to ``ways[result]``.
    """
    both: _Found = {}
    high_only: _Found = {}
    low_only: _Found = {}
    for first_die, second_die, single in ((high, low, high_only), (low, high, low_only)):
        for first in _steps(b, first_die, 25):
            _apply(b, first)
            seconds = _steps(b, second_die, 25)
            if seconds:
                for second in seconds:
                    _apply(b, second)
                    key = tuple(b)
                    if key not in both:
                        both[key] = (first, second)
                    if ways is not None:
                        ways.setdefault(key, []).append((first, second))
                    _undo(b, second)
            elif not both:
                single[tuple(b)] = (first,)
            _undo(b, first)
    if both:
        return both
    # Only one die can be played: the larger one if it can be (rules.md 3).
    if high_only:
        return high_only
    if low_only:
        return low_only
    return {tuple(b): ()}


def _doubles(b: list[int], die: int, ways: _Ways | None = None) -> _Found:
    """Plays of a double: up to four steps, taken in non-increasing start order (no repeats).

    With ``ways``, every such order of steps that reaches each result is added to
    ``ways[result]`` (each set of steps once: the order is always by descending start).
    """
    found: _Found = {}
    _walk_doubles(b, die, 25, [], found, ways)
    return found


def _walk_doubles(
    b: list[int], die: int, limit: int, path: list[Step], found: _Found, ways: _Ways | None
) -> None:
    """Extend ``path`` by every step of ``die`` from ``limit`` down, keeping in ``found`` the
    plays that use the most steps.

    A plain recursive function, not a closure: a closure that calls itself is a reference
    cycle, and every doubles roll would leave its boards for the garbage collector.
    """
    candidates = _steps(b, die, limit)
    if not candidates or len(path) == 4:
        depth = len(path)
        best = len(next(iter(found.values()))) if found else 0
        if depth >= best:
            if depth > best:
                found.clear()
                if ways is not None:
                    ways.clear()
            key = tuple(b)
            if key not in found:
                found[key] = tuple(path)
            if ways is not None:
                ways.setdefault(key, []).append(tuple(path))
        return
    for step in candidates:
        _apply(b, step)
        path.append(step)
        _walk_doubles(b, die, step.start, path, found, ways)
        path.pop()
        _undo(b, step)


Alternatives = dict[Position, list[tuple[Step, ...]]]
"""For each legal play's result, every set of single steps that reaches it."""


def step_alternatives(position: Position, dice: tuple[int, int]) -> Alternatives:
    """For each legal play's result, every set of single steps that reaches it.

    ``legal_plays`` keeps one way per result; a player may take another (24/18/13 or 24/19/13
    with 6-5). Each set is listed once, in an order that can be played (starts descending).
    """
    return plays_and_alternatives(position, dice)[1]


def plays_and_alternatives(
    position: Position, dice: tuple[int, int]
) -> tuple[list[Play], Alternatives]:
    """:func:`legal_plays` and :func:`step_alternatives` from one search."""
    ways: _Ways = {}
    plays, keys = _plays(position, dice, ways)
    double = dice[0] == dice[1]
    alternatives: Alternatives = {}
    for play, key in zip(plays, keys, strict=True):
        taken = ways.get(key)
        if not taken:  # one die only, or none: the one way the search kept
            alternatives[play.result] = [play.steps]
        elif double:  # each set once already, its starts descending
            alternatives[play.result] = sorted(taken, reverse=True)
        else:  # both orders of the dice may reach the same pair of steps
            pairs = {(a, b) if (a.start, a.end) >= (b.start, b.end) else (b, a) for a, b in taken}
            alternatives[play.result] = sorted(pairs, reverse=True)
    return plays, alternatives


def single_steps(position: Position, die: int) -> list[Step]:
    """Every step one die allows on its own, ignoring the rest of the roll (rules.md 3-5).

    Useful to build a play step by step; whether a step can be part of a legal play of the
    whole roll is for the caller to check against :func:`legal_plays`.
    """
    if type(die) is not int or not 1 <= die <= 6:
        raise InvalidDice(f"a die is a number from 1 to 6, not {die!r}")
    return _steps([position.bar.opponent, *position.points, position.bar.mover], die, 25)


def apply_step(position: Position, step: Step) -> Position:
    """The position after one step (still the mover's view); the step must come from
    :func:`single_steps` of this position."""
    board = [position.bar.opponent, *position.points, position.bar.mover]
    _apply(board, step)
    return Position._unchecked(tuple(board[1:25]), board[25], board[0])


def find_play(
    position: Position,
    dice: tuple[int, int],
    steps: Sequence[tuple[int, int]],
    plays: Sequence[Play] | None = None,
) -> Play:
    """The legal play made of exactly these ``(start, end)`` steps, given in any order.

    ``plays`` are the legal plays of ``position`` and ``dice`` when the caller has them already.

    Steps are taken from the highest start down, which never needs a checker that has not
    arrived yet. Raises :class:`IllegalPlay` when no legal play matches.
    """
    if not all(
        isinstance(step, tuple | list) and len(step) == 2 and all(type(p) is int for p in step)
        for step in steps
    ):
        raise IllegalPlay("a play is a list of steps, each a start and an end point")
    steps = sorted(((start, end) for start, end in steps), reverse=True)
    if plays is None:
        plays = legal_plays(position, dice)
    board = [position.bar.opponent, *position.points, position.bar.mover]
    for start, end in steps:
        if not (0 <= end < start <= 25):
            raise IllegalPlay(f"{start}/{end} is not a step forward ({position.position_id})")
        if board[start] <= 0:
            raise IllegalPlay(
                f"no checker of yours on {point_name(start)} for"
                f" {point_name(start)}/{point_name(end)} ({position.position_id})"
            )
        board[start] -= 1
        if end:
            if board[end] < -1:
                raise IllegalPlay(f"point {end} is blocked ({position.position_id})")
            if board[end] == -1:
                board[end] = 0
                board[0] += 1
            board[end] += 1
    key = tuple(board)
    matches = [
        play
        for play in plays
        if (play.result.bar.opponent, *play.result.points, play.result.bar.mover) == key
    ]
    if not matches:
        raise IllegalPlay(
            f"that play is not legal with {dice[0]}-{dice[1]} ({position.position_id})"
        )
    if len(matches) > 1:  # pragma: no cover - results are distinct by construction
        raise AmbiguousPlay("more than one play matches")
    return matches[0]
