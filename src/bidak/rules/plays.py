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

Inside the search a step is a small int, its *code* (``start << 6 | end << 1 | hit``, so codes
order like the :class:`Step` tuples they stand for), looked up in tables: its parts, its shared
:class:`Step` object and its change of the board's *key*. The key of a resulting board is an int,
the sum of its steps' changes (see ``_DELTA``), so a board is copied only the first time the
search reaches it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from bidak.errors import AmbiguousPlay, IllegalPlay, InvalidDice
from bidak.rules.notation import format_steps, point_name, resolve
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
        return resolve(text, position, dice)


def check_dice(dice: tuple[int, int]) -> tuple[int, int]:
    """Return ``dice`` as a pair of ints 1..6 or raise :class:`InvalidDice`."""
    if isinstance(dice, (tuple, list)) and len(dice) == 2:  # (a tuple checks faster than a union)
        d1, d2 = dice
        if type(d1) is int and type(d2) is int and 1 <= d1 <= 6 and 1 <= d2 <= 6:
            return d1, d2
    raise InvalidDice(f"dice must be two numbers from 1 to 6, not {dice!r}")


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
    found = _search(position, dice, False)
    unchecked = Position._unchecked
    plays: list[Play] = []
    for board, steps, _ in found.values():
        play = _new_play(Play)
        _set_steps(play, steps)
        _set_result(play, unchecked(board[1:25], board[25], board[0]))
        plays.append(play)
    return plays


def _search(position: Position, dice: tuple[int, int], every: bool) -> _Found:
    """The results of the legal plays, with every set of steps that reaches each if ``every``."""
    d1, d2 = check_dice(dice)
    board = [position.bar.opponent, *position.points, position.bar.mover]
    if d1 == d2:
        return _doubles(board, d1, every)
    return _two_dice(board, d1, d2, every) if d1 > d2 else _two_dice(board, d2, d1, every)


# Plays the search produced are valid by construction: build them without the dataclass checks.
_new_play = object.__new__
_set_steps = Play.__dict__["steps"].__set__
_set_result = Play.__dict__["result"].__set__


# -- the search: step codes and board keys ------------------------------------------------------

_SLOT_BITS = 6
"""Bits of one board slot in a key: counts stay within -15..15, so two different boards differ
by less than 64 on every slot and never share a key."""


def _code_parts(code: int) -> tuple[int, int, bool]:
    return code >> 6, code >> 1 & 31, bool(code & 1)


def _code_delta(code: int) -> int:
    """How the step of ``code`` changes a board's key (see ``_apply``)."""
    start, end, hit = _code_parts(code)
    delta = -(1 << _SLOT_BITS * start)
    if end and hit:  # the blot goes from -1 to 1 and to the opponent's bar, b[0]
        delta += (2 << _SLOT_BITS * end) + 1
    elif end:
        delta += 1 << _SLOT_BITS * end
    return delta


_PARTS = [_code_parts(code) for code in range(26 << 6)]
"""``(start, end, hit)`` of each step code."""
_STEP = [Step(*parts) for parts in _PARTS]
"""The :class:`Step` of each step code, shared by every play."""
_DELTA = [_code_delta(code) for code in range(26 << 6)]
"""The change of a board's key by each step code."""


_Found = dict[int, tuple[tuple[int, ...], tuple[Step, ...], list[tuple[Step, ...]]]]
"""Search results by board key: the board (a 26-tuple), the steps first found to reach it, and
(at least when asked for) every set of steps that reaches it, each once, in an order that can be
played (starts descending)."""


def _steps(b: list[int], die: int, limit: int) -> list[int]:
    """The code of every single step of ``die`` on board ``b`` whose start is at most ``limit``."""
    if b[25]:
        # Checkers on the bar enter first, on the mover's point 25 - die (rules.md 4).
        end = 25 - die
        if limit == 25 and b[end] >= -1:
            return [25 << 6 | end << 1 | (b[end] == -1)]
        return []
    found: list[int] = []
    for start in range(24 if limit > 24 else limit, die, -1):
        if b[start] > 0:
            target = b[start - die]
            if target >= -1:
                found.append(start << 6 | (start - die) << 1 | (target == -1))
    top = 24
    while top and b[top] <= 0:
        top -= 1
    if top <= 6:
        # Bearing off (rules.md 5): exactly from the die's point, or with a larger die from the
        # highest occupied point when no checker stands higher.
        if die <= limit and b[die] > 0:
            found.append(die << 6)
        elif 0 < top < die and top <= limit:
            found.append(top << 6)
    return found


def _apply(b: list[int], step: tuple[int, int, bool]) -> None:
    start, end, hit = step
    b[start] -= 1
    if end:
        if hit:
            b[end] = 1
            b[0] += 1
        else:
            b[end] += 1


def _undo(b: list[int], step: tuple[int, int, bool]) -> None:
    start, end, hit = step
    b[start] += 1
    if end:
        if hit:
            b[end] = -1
            b[0] -= 1
        else:
            b[end] -= 1


def _larger_first(first: int, second: int) -> tuple[Step, Step]:
    """The steps of two codes, the larger first (codes compare as their steps do)."""
    if first >= second:
        return _STEP[first], _STEP[second]
    return _STEP[second], _STEP[first]


def _two_dice(b: list[int], high: int, low: int, every: bool) -> _Found:
    """Plays of a non-double roll, with the maximum-use and larger-die rules (rules.md 3).

    Both orders of the dice may reach the same pair of steps: its set is kept once, the larger
    step first.
    """
    both: _Found = {}
    high_only: _Found = {}
    low_only: _Found = {}
    for first_die, second_die, single in ((high, low, high_only), (low, high, low_only)):
        for first in _steps(b, first_die, 25):
            step = _PARTS[first]
            _apply(b, step)
            seconds = _steps(b, second_die, 25)
            if seconds:
                first_key = _DELTA[first]
                first_step = _STEP[first]
                for second in seconds:
                    key = first_key + _DELTA[second]
                    result = both.get(key)
                    if result is None:
                        second_parts = _PARTS[second]
                        _apply(b, second_parts)
                        sets: list[tuple[Step, ...]] = (
                            [_larger_first(first, second)] if every else []
                        )
                        both[key] = (tuple(b), (first_step, _STEP[second]), sets)
                        _undo(b, second_parts)
                    elif every:
                        pair = _larger_first(first, second)
                        if pair not in result[2]:
                            result[2].append(pair)
            elif not both:
                steps = (_STEP[first],)
                single[_DELTA[first]] = (tuple(b), steps, [steps])
            _undo(b, step)
    # Only one die can be played: the larger one if it can be (rules.md 3).
    return both or high_only or low_only or {0: (tuple(b), (), [()])}


def _doubles(b: list[int], die: int, every: bool) -> _Found:
    """Plays of a double: up to four steps, taken in non-increasing start order (no repeats).

    Every play follows that order, so each set of steps that reaches a result is found once.
    """
    by_length: list[_Found] = [{}, {}, {}, {}, {}]
    _walk_doubles(b, die, 25, 0, (), by_length, every)
    length = 4
    while not by_length[length]:
        length -= 1
    return by_length[length]


def _walk_doubles(
    b: list[int],
    die: int,
    limit: int,
    key: int,
    steps: tuple[Step, ...],
    by_length: list[_Found],
    every: bool,
) -> None:
    """Extend ``steps`` (leading to board ``b`` of ``key``) by every step of ``die`` from
    ``limit`` down; where they cannot go on, keep them in ``by_length[len(steps)]``.

    A plain recursive function, not a closure: a closure that calls itself is a reference
    cycle, and every doubles roll would leave its boards for the garbage collector.
    """
    length = len(steps)
    if length < 4:
        candidates = _steps(b, die, limit)
        if candidates:
            for code in candidates:
                step = _PARTS[code]
                _apply(b, step)
                _walk_doubles(
                    b, die, step[0], key + _DELTA[code], (*steps, _STEP[code]), by_length, every
                )
                _undo(b, step)
            return
    found = by_length[length]
    result = found.get(key)
    if result is None:
        found[key] = (tuple(b), steps, [steps])
    elif every:
        result[2].append(steps)


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
    """:func:`legal_plays` and :func:`step_alternatives` from one search.

    The sets of steps of a result come in descending order (by their steps, largest first).
    """
    found = _search(position, dice, True)
    unchecked = Position._unchecked
    plays: list[Play] = []
    alternatives: Alternatives = {}
    for board, steps, sets in found.values():
        result = unchecked(board[1:25], board[25], board[0])
        play = _new_play(Play)
        _set_steps(play, steps)
        _set_result(play, result)
        plays.append(play)
        alternatives[result] = sets if len(sets) == 1 else sorted(sets, reverse=True)
    return plays, alternatives


def single_steps(position: Position, die: int) -> list[Step]:
    """Every step one die allows on its own, ignoring the rest of the roll (rules.md 3-5).

    Useful to build a play step by step; whether a step can be part of a legal play of the
    whole roll is for the caller to check against :func:`legal_plays`.
    """
    if type(die) is not int or not 1 <= die <= 6:
        raise InvalidDice(f"a die is a number from 1 to 6, not {die!r}")
    board = [position.bar.opponent, *position.points, position.bar.mover]
    return [_STEP[code] for code in _steps(board, die, 25)]


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
    # Compared in place, the points first (a tuple comparison that stops at the first point
    # that differs): building a key for every legal play cost more than the whole check.
    points, bar_mover, bar_opponent = tuple(board[1:25]), board[25], board[0]
    matches = [
        play
        for play in plays
        if play.result.points == points
        and play.result.bar.mover == bar_mover
        and play.result.bar.opponent == bar_opponent
    ]
    if not matches:
        raise IllegalPlay(
            f"that play is not legal with {dice[0]}-{dice[1]} ({position.position_id})"
        )
    if len(matches) > 1:  # pragma: no cover - results are distinct by construction
        raise AmbiguousPlay("more than one play matches")
    return matches[0]
