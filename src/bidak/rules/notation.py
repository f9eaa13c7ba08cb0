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


def _chains(steps: tuple[Step, ...]) -> list[list[Step]]:
    """Group the steps into the paths of single checkers, in the order they were played."""
    chains: list[list[Step]] = []
    for step in steps:
        for chain in chains:
            if chain[-1].end == step.start and chain[-1].end != OFF:
                chain.append(step)
                break
        else:
            chains.append([step])
    return chains


def _by_points(hop: tuple[int, int, str]) -> tuple[int, int]:
    return hop[0], hop[1]


def format_steps(steps: tuple[Step, ...]) -> str:
    """Standard notation for a play's steps; an empty play (no move possible) is ``""``.

    >>> from bidak.rules.plays import Step
    >>> format_steps((Step(8, 3, True), Step(3, 1, True)))
    '8/3*/1*'
    >>> format_steps((Step(13, 9, False), Step(9, 5, False), Step(13, 9, False), Step(9, 5, False)))
    '13/5(2)'
    """
    names = _NAMES
    hops: list[tuple[int, int, str]] = []
    for chain in _chains(steps):
        parts = [names[chain[0].start]]
        for step in chain[:-1]:
            if step.hit:
                parts.append(names[step.end] + "*")
        last = chain[-1]
        parts.append(names[last.end] + "*" if last.hit else names[last.end])
        hops.append((-chain[0].start, -last.end, "/".join(parts)))
    if len(hops) == 1:
        return hops[0][2]
    hops.sort(key=_by_points)
    counts: dict[str, int] = {}
    for _, _, text in hops:
        counts[text] = counts.get(text, 0) + 1
    return " ".join(text if count == 1 else f"{text}({count})" for text, count in counts.items())


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
