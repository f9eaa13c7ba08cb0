"""Standard move notation (formats.md 5): ``8/5(2) 6/5*``, ``bar/22``, ``6/off``, ``13/7*/5``.

Printing follows GNU Backgammon: a checker that uses several dice is one hop, with a hit part-way
shown as an intermediate stop; identical hops are written once with a count; parts are ordered by
descending start point, the bar first. Parsing accepts that form, the ``.mat`` form (``25/21``,
``6/0``), any case and any order, and resolves the text against the legal plays of the roll.
"""

from __future__ import annotations

import re
from itertools import pairwise
from typing import TYPE_CHECKING, NamedTuple

from bidak.errors import AmbiguousPlay, IllegalPlay, InvalidNotation
from bidak.rules.position import BAR, OFF

if TYPE_CHECKING:
    from bidak.rules.plays import Play, Step
    from bidak.rules.position import Position


_NAMES = ("off", *(str(point) for point in range(1, 25)), "bar")


def point_name(point: int) -> str:
    return _NAMES[point]


def format_steps(steps: tuple[Step, ...]) -> str:
    """Standard notation for a play's steps; an empty play (no move possible) is ``""``.

    >>> from bidak.rules.plays import Step
    >>> format_steps((Step(8, 3, True), Step(3, 1, True)))
    '8/3*/1*'
    >>> format_steps((Step(13, 9, False), Step(9, 5, False), Step(13, 9, False), Step(9, 5, False)))
    '13/5(2)'
    """
    names = _NAMES
    if len(steps) == 2:  # the common case, written out
        (start, middle, hit), (second_start, end, second_hit) = steps
        if middle == second_start and middle != OFF:  # one checker
            if hit:
                return f"{names[start]}/{names[middle]}*/{names[end]}{'*' if second_hit else ''}"
            return f"{names[start]}/{names[end]}{'*' if second_hit else ''}"
        first = f"{names[start]}/{names[middle]}{'*' if hit else ''}"
        second = f"{names[second_start]}/{names[end]}{'*' if second_hit else ''}"
        if first == second:
            return first + "(2)"
        if (start, middle) >= (second_start, end):
            return first + " " + second
        return second + " " + first
    # The hops (paths of single checkers) in the order they start: each one's first start, last
    # end, whether its last step hits, and its text up to the last stop (a hit part-way is shown
    # as a stop). A step continues the first hop that ends where it starts, unless that is off.
    starts: list[int] = []
    ends: list[int] = []
    hits: list[bool] = []
    texts: list[str] = []
    for start, end, hit in steps:
        if start != OFF and start in ends:
            hop = ends.index(start)
            if hits[hop]:
                texts[hop] += "/" + names[start] + "*"
            ends[hop] = end
            hits[hop] = hit
        else:
            starts.append(start)
            ends.append(end)
            hits.append(hit)
            texts.append(names[start])
    count = len(texts)
    if count == 1:
        return f"{texts[0]}/{names[ends[0]]}{'*' if hits[0] else ''}"
    # Identical hops are written once with a count, in the place of the first; the hops go by
    # descending start, then end, and otherwise as played (the negated index keeps that order).
    counts: dict[str, int] = {}
    for _, end, hop in sorted(zip(starts, ends, range(0, -count, -1), strict=True), reverse=True):
        text = f"{texts[-hop]}/{names[end]}{'*' if hits[-hop] else ''}"
        counts[text] = counts.get(text, 0) + 1
    if len(counts) == count:
        return " ".join(counts)
    return " ".join([text if n == 1 else f"{text}({n})" for text, n in counts.items()])


class Hop(NamedTuple):
    """One checker's path in written notation: its stops, and which stops hit."""

    stops: tuple[int, ...]
    hits: tuple[bool, ...]


_TOKEN = re.compile(r"^(?P<path>[0-9a-z/*]+?)(?:\((?P<count>\d)\))?$")


def _point(text: str, source: str) -> int:
    if text == "bar":
        return BAR
    if text == "off":
        return OFF
    if text.isdigit() and 0 <= int(text) <= 25:
        return int(text)
    raise InvalidNotation(f"{text!r} is not a point (1-24, bar or off) in {source!r}")


def parse_hops(text: str) -> list[Hop]:
    """Split notation into hops, expanding ``(n)`` counts; a blank text is an empty play.

    >>> parse_hops("bar/22 13/7*/5")
    [Hop(stops=(25, 22), hits=(False, False)), Hop(stops=(13, 7, 5), hits=(False, True, False))]
    """
    hops: list[Hop] = []
    for token in text.lower().replace(",", " ").split():
        match = _TOKEN.match(token)
        if not match:
            raise InvalidNotation(f"cannot read {token!r} as a step such as 13/7 or bar/22")
        parts = match["path"].split("/")
        if len(parts) < 2 or any(not part.rstrip("*") for part in parts):
            raise InvalidNotation(f"{token!r} needs a start and an end, such as 13/7")
        stops = tuple(_point(part.rstrip("*"), text) for part in parts)
        hits = tuple(part.endswith("*") for part in parts)
        if hits[0]:
            raise InvalidNotation(f"{token!r}: a hit is marked where the checker lands")
        if any(a <= b for a, b in pairwise(stops)):
            raise InvalidNotation(f"{token!r}: checkers move from higher points to lower ones")
        if stops[0] == OFF or BAR in stops[1:]:
            raise InvalidNotation(f"{token!r}: bar can only start a step and off only end one")
        count = int(match["count"] or 1)
        if not 1 <= count <= 4:
            raise InvalidNotation(f"{token!r}: a count must be 1 to 4")
        hops.extend([Hop(stops, hits)] * count)
    return hops


def _mover_side(position: Position) -> tuple[int, ...]:
    return (*(n if n > 0 else 0 for n in position.points), position.bar.mover)


def resolve(text: str, position: Position, dice: tuple[int, int]) -> Play:
    """The legal play that ``text`` names; raises a :class:`~bidak.errors.BidakError` otherwise."""
    from bidak.rules.plays import legal_plays

    hops = parse_hops(text)
    mine = [*_mover_side(position)]
    stated_hits: set[int] = set()
    # Take the hops from the highest start down, so "21/18* bar/21" reads like "bar/21 21/18*".
    for hop in sorted(hops, key=lambda hop: -hop.stops[0]):
        start, end = hop.stops[0], hop.stops[-1]
        slot = 24 if start == BAR else start - 1
        if mine[slot] <= 0:
            raise IllegalPlay(
                f"you have no checker on {point_name(start)} ({position.position_id})"
            )
        mine[slot] -= 1
        if end != OFF:
            mine[end - 1] += 1
        stated_hits.update(stop for stop, hit in zip(hop.stops, hop.hits, strict=True) if hit)
    wanted = tuple(mine)
    plays = legal_plays(position, dice)
    same = [play for play in plays if _mover_side(play.result) == wanted]
    if len(same) > 1:
        exact = [play for play in same if {s.end for s in play.steps if s.hit} == stated_hits]
        if len(exact) == 1:
            return exact[0]
        raise AmbiguousPlay(
            f"{text!r} could mean {' or '.join(str(p) for p in same)}: mark the hits with *"
        )
    if not same:
        legal = ", ".join(str(p) for p in plays[:8]) + (" ..." if len(plays) > 8 else "")
        raise IllegalPlay(
            f"{text!r} is not a legal play of {dice[0]}-{dice[1]} here"
            f" ({position.position_id}); legal plays include: {legal or 'none'}"
        )
    return same[0]
