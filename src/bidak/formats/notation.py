"""Move notation at the format edge (formats.md 5).

Standard notation (``24/13``, ``8/5(2)``, ``bar/18*``, ``13/7*/5``) lives in :mod:`bidak.rules` and
is re-exported here: :func:`format_steps`, :func:`parse_hops` and :meth:`Play.parse`.

The ``.mat`` form writes every step separately with numbers only: 25 is the bar and 0 is off, a
``*`` marks a hit, nothing is compressed (``33: 8/5 8/5 6/3 6/3``, ``52: 8/3* 3/1*``). Writers
sometimes combine a checker's dice (``61: 11/4``); :func:`resolve_mat_steps` expands such a step
into single dice, as gnubg's importer does, and finds the legal play it names.

>>> format_mat_steps(parse_mat_steps("25/21 21/18*"))
'25/21 21/18*'
>>> from bidak.rules import Position
>>> play = parse_mat_play("13/7 13/9", Position.initial(), (6, 4))
>>> format_mat_steps(play.steps), str(play)
('13/7 13/9', '13/9 13/7')
>>> format_mat_steps(parse_mat_play("24/13", Position.initial(), (6, 5)).steps)
'24/18 18/13'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import pairwise, permutations, product
from typing import Final

from bidak.errors import IllegalPlay
from bidak.rules import Play, Position, Step, check_dice, format_steps, legal_plays, parse_hops

__all__ = [
    "Play",
    "Step",
    "format_mat_steps",
    "format_steps",
    "parse_hops",
    "parse_mat_play",
    "parse_mat_steps",
    "resolve_mat_steps",
]

_MAX_WRITTEN: Final = 4
"""A roll is at most four dice, so a written play has at most four steps (even combined)."""

_Board = tuple[int, ...]


def format_mat_steps(steps: Iterable[tuple[int, int, bool]]) -> str:
    """The ``.mat`` form: each step as ``start/end``, ``*`` on a hit, 25 = bar, 0 = off."""
    return " ".join(f"{start}/{end}{'*' if hit else ''}" for start, end, hit in steps)


def parse_mat_steps(text: str) -> tuple[Step, ...]:
    """The steps as written, one per start/end pair, hits as marked; no position is needed.

    Intermediate stops split a hop (``13/7*/5`` is two steps) and counts repeat it
    (``8/5(2)``); ``bar`` and ``off`` are read as 25 and 0. Combined steps such as ``11/4`` stay
    combined: only :func:`resolve_mat_steps` knows the dice. Raises
    :class:`~bidak.errors.InvalidNotation`.

    >>> [tuple(step) for step in parse_mat_steps("bar/22 13/7*/5")]
    [(25, 22, False), (13, 7, True), (7, 5, False)]
    """
    steps: list[Step] = []
    for hop in parse_hops(text):
        for (start, end), hit in zip(pairwise(hop.stops), hop.hits[1:], strict=True):
            steps.append(Step(start, end, hit))
    return tuple(steps)


def parse_mat_play(text: str, position: Position, dice: tuple[int, int]) -> Play:
    """The legal play a ``.mat`` move text names (see :func:`resolve_mat_steps`)."""
    return resolve_mat_steps(position, dice, parse_mat_steps(text))


def resolve_mat_steps(
    position: Position, dice: tuple[int, int], written: Sequence[tuple[int, int, bool]]
) -> Play:
    """The legal play that the written steps make, with its steps expanded to single dice.

    A written step longer than one die is split along the dice (``61: 11/4`` becomes ``11/5 5/4``
    or ``11/10 10/4``, whichever is legal; when both are, the one whose hits agree with the written
    ``*`` marks wins, then the first). The play is legal when the board it leads to is the board of
    one of :func:`~bidak.rules.legal_plays` (the test :func:`~bidak.rules.find_play` makes, done
    once per roll here). The returned play keeps the written order of the steps, with the hits
    that really happen. An empty ``written`` means the roll cannot be played.

    Raises :class:`~bidak.errors.IllegalPlay` (with the Position ID) when no legal play matches.
    """
    d1, d2 = check_dice(dice)
    plays = legal_plays(position, (d1, d2))
    if not written:
        if plays[0].steps:
            raise IllegalPlay(
                f"no play is written for {d1}{d2}, but it can be played here"
                f" ({position.position_id}), e.g. {plays[0]}"
            )
        return plays[0]
    if len(written) > _MAX_WRITTEN:
        raise IllegalPlay(f"{format_mat_steps(written)}: a roll has at most four steps")
    by_result = {_key(play.result): play for play in plays}
    wanted_hits = {end for _, end, hit in written if hit}
    max_steps = 4 if d1 == d2 else 2
    fallback: Play | None = None
    seen: set[tuple[tuple[int, int], ...]] = set()
    for order in _orders(written):
        options = [_chains(start, end, d1, d2) for start, end, _ in order]
        for index, chains in enumerate(options):
            if not chains:
                start, end, _ = order[index]
                raise IllegalPlay(
                    f"{start}/{end} cannot be moved with {d1}-{d2} ({position.position_id})"
                )
        for combination in product(*options):
            pairs = tuple(pair for chain in combination for pair in chain)
            if len(pairs) > max_steps or pairs in seen:
                continue
            seen.add(pairs)
            simulated = _simulate(position, pairs)
            if simulated is None:
                continue
            board, steps = simulated
            play = by_result.get(board)
            if play is None:
                continue
            found = Play(steps, play.result)
            if {step.end for step in steps if step.hit} == wanted_hits:
                return found
            if fallback is None:
                fallback = found
    if fallback is not None:
        return fallback
    legal = ", ".join(str(play) for play in plays[:8]) + (" ..." if len(plays) > 8 else "")
    raise IllegalPlay(
        f"{format_mat_steps(written)} is not a legal play of {d1}{d2} here"
        f" ({position.position_id}); legal plays include: {legal}"
    )


def _orders(
    written: Sequence[tuple[int, int, bool]],
) -> Iterable[tuple[tuple[int, int, bool], ...]]:
    """The written order first, then the other orders (a writer may list a later step first)."""
    first = tuple(written)
    yield first
    for order in dict.fromkeys(permutations(first)):
        if order != first:
            yield order


def _chains(start: int, end: int, d1: int, d2: int) -> list[tuple[tuple[int, int], ...]]:
    """The ways one written step can be made of single dice, shortest first."""
    if not 0 <= end < start <= 25:
        return []
    sequences: list[tuple[int, ...]]
    if d1 == d2:
        sequences = [(d1,) * count for count in range(1, 5)]
    else:
        sequences = [(d1,), (d2,), (d1, d2), (d2, d1)]
    found: list[tuple[tuple[int, int], ...]] = []
    for dice in sequences:
        stops = [start]
        for die in dice[:-1]:
            stops.append(stops[-1] - die)
        if stops[-1] <= 0:
            continue  # only the last die may bear off
        last = stops[-1] - dice[-1]
        if (end > 0 and last != end) or (end == 0 and last > 0):
            continue
        stops.append(end)
        chain = tuple(pairwise(stops))
        if chain not in found:
            found.append(chain)
    return found


def _key(position: Position) -> _Board:
    return (position.bar.opponent, *position.points, position.bar.mover)


def _simulate(
    position: Position, pairs: tuple[tuple[int, int], ...]
) -> tuple[_Board, tuple[Step, ...]] | None:
    """Move the checkers one step at a time; ``None`` if a step has no checker or is blocked."""
    board = list(_key(position))
    steps: list[Step] = []
    for start, end in pairs:
        if board[start] <= 0:
            return None
        board[start] -= 1
        hit = False
        if end:
            if board[end] < -1:
                return None
            hit = board[end] == -1
            if hit:
                board[end] = 0
                board[0] += 1
            board[end] += 1
        steps.append(Step(start, end, hit))
    return tuple(board), tuple(steps)
