"""The knockout: a bracket of fixed-length matches, seeded by rating.

:func:`new_bracket` seeds 4 to 64 players by rating (ties by id) into a bracket of the next power
of two, in the usual order (seed 1 meets the last seed, and the two best seeds can only meet in
the final); the places past the last seed are byes, which go to the best seeds. Rounds are played
in turn: the *current round* is the first with an undecided match. A match is decided by play
(:func:`advance`), by a bye, or by a forfeit at the round's deadline (:func:`forfeit_absent`): a
player who has not come to a match that has not started loses it; if neither came, the better
seed goes through, so a bracket never stalls. Each round may have its own match length
(:func:`length_of_round`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

MIN_PLAYERS = 4
MAX_PLAYERS = 64
LENGTHS = (3, 5, 7, 9, 11)

How = Literal["played", "bye", "forfeit"]


@dataclass(frozen=True)
class Slot:
    """One match of the bracket: its two players (None: a bye's empty place, or not known
    yet), and once decided its winner and how."""

    a: str | None = None
    b: str | None = None
    winner: str | None = None
    how: How | None = None

    @property
    def playable(self) -> bool:
        """Both players known and no winner yet."""
        return self.a is not None and self.b is not None and self.winner is None

    @property
    def loser(self) -> str | None:
        if self.winner is None:
            return None
        return self.b if self.winner == self.a else self.a


@dataclass(frozen=True)
class Bracket:
    seeds: tuple[str, ...]
    """The players, best seed first."""
    rounds: tuple[tuple[Slot, ...], ...]
    """Round 0 (the first) to the final; round ``r`` has ``size / 2 ** (r + 1)`` matches."""

    @property
    def champion(self) -> str | None:
        return self.rounds[-1][0].winner

    @property
    def current_round(self) -> int | None:
        """The first round with an undecided match; None when the bracket is over."""
        for number, slots in enumerate(self.rounds):
            if any(slot.winner is None for slot in slots):
                return number
        return None

    def playable(self) -> list[tuple[int, int, Slot]]:
        """The matches of the current round to be played: (round, index, slot)."""
        number = self.current_round
        if number is None:
            return []
        return [(number, i, s) for i, s in enumerate(self.rounds[number]) if s.playable]

    def seed_of(self, player: str) -> int:
        """1 for the best seed."""
        return self.seeds.index(player) + 1


def bracket_size(players: int) -> int:
    """The power of two a bracket of ``players`` fills (4 to 64 players)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"a knockout has {MIN_PLAYERS} to {MAX_PLAYERS} players (got {players})")
    size = 1
    while size < players:
        size *= 2
    return size


def seed_order(size: int) -> list[int]:
    """Seeds in bracket order: [1, 4, 2, 3] for 4; 1 and 2 meet only in the final."""
    order = [1, 2]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, total - s)]
    return order[:size]


def length_of_round(lengths: tuple[int, ...], number: int) -> int:
    """The match length of round ``number`` (0 the first): one length for all rounds, or
    growing per round, the last one kept for the rounds past the list."""
    if not lengths:
        raise ValueError("a knockout needs at least one match length")
    return lengths[min(number, len(lengths) - 1)]


def new_bracket(ratings: Mapping[str, float]) -> Bracket:
    """The bracket of these players (id -> rating), seeded, byes decided."""
    seeds = tuple(sorted(ratings, key=lambda p: (-ratings[p], p)))
    size = bracket_size(len(seeds))
    places = [seeds[s - 1] if s <= len(seeds) else None for s in seed_order(size)]
    first = tuple(Slot(places[i], places[i + 1]) for i in range(0, size, 2))
    rounds = [first]
    while len(rounds[-1]) > 1:
        rounds.append(tuple(Slot() for _ in range(len(rounds[-1]) // 2)))
    bracket = Bracket(seeds, tuple(rounds))
    for index, slot in enumerate(first):
        if slot.a is None or slot.b is None:
            only = slot.a if slot.a is not None else slot.b
            assert only is not None  # more than half the places are taken
            bracket = _decide(bracket, 0, index, only, "bye")
    return bracket


def _decide(bracket: Bracket, number: int, index: int, winner: str, how: How) -> Bracket:
    rounds = [list(r) for r in bracket.rounds]
    rounds[number][index] = replace(rounds[number][index], winner=winner, how=how)
    if number + 1 < len(rounds):
        parent = rounds[number + 1][index // 2]
        if index % 2 == 0:
            rounds[number + 1][index // 2] = replace(parent, a=winner)
        else:
            rounds[number + 1][index // 2] = replace(parent, b=winner)
    return Bracket(bracket.seeds, tuple(tuple(r) for r in rounds))


def advance(bracket: Bracket, number: int, index: int, winner: str) -> Bracket:
    """The bracket after ``winner`` won match ``index`` of round ``number`` by play."""
    slot = bracket.rounds[number][index]
    if not slot.playable:
        raise ValueError(f"match {number}/{index} is not to be played")
    if winner not in (slot.a, slot.b):
        raise ValueError(f"{winner} is not in match {number}/{index}")
    if number != bracket.current_round:
        raise ValueError(f"round {number} is not the current round")
    return _decide(bracket, number, index, winner, "played")


def forfeit_absent(
    bracket: Bracket,
    present: Collection[str],
    started: Collection[int],
    barred: Collection[str] = (),
) -> Bracket:
    """The bracket after the current round's deadline: each undecided match of it whose play
    has not started (its index not in ``started``) goes to the player who may play when the
    other is ``barred`` (banned since the bracket was drawn), else to the player who came (is
    in ``present``), or to the better seed if both or neither came."""
    number = bracket.current_round
    if number is None:
        return bracket
    for index, slot in enumerate(bracket.rounds[number]):
        if not slot.playable or index in started:
            continue
        assert slot.a is not None and slot.b is not None
        a_came, b_came = slot.a in present, slot.b in present
        a_out, b_out = slot.a in barred, slot.b in barred
        if a_out != b_out:
            winner = slot.b if a_out else slot.a
        elif a_came != b_came:
            winner = slot.a if a_came else slot.b
        else:
            winner = min(slot.a, slot.b, key=bracket.seed_of)
        bracket = _decide(bracket, number, index, winner, "forfeit")
    return bracket


def places(bracket: Bracket) -> dict[str, int]:
    """Where each player finished, as far as the bracket is decided: the champion 1, the loser
    of the final 2, of a semi-final 3 (shared), of a quarter-final 5, and so on (a loser of a
    round of ``n`` matches places ``n + 1``). A player still in, or given a bye into a round not
    played yet, has no place."""
    found: dict[str, int] = {}
    for slots in bracket.rounds:
        for slot in slots:
            if slot.loser is not None:
                found[slot.loser] = len(slots) + 1
    if bracket.champion is not None:
        found[bracket.champion] = 1
    return found


def to_json(bracket: Bracket) -> dict[str, Any]:
    return {
        "seeds": list(bracket.seeds),
        "rounds": [
            [{"a": s.a, "b": s.b, "winner": s.winner, "how": s.how} for s in slots]
            for slots in bracket.rounds
        ],
    }


def from_json(data: Mapping[str, Any]) -> Bracket:
    rounds: Iterable[Iterable[Mapping[str, Any]]] = data["rounds"]
    return Bracket(
        tuple(data["seeds"]),
        tuple(
            tuple(Slot(s["a"], s["b"], s["winner"], s["how"]) for s in slots) for slots in rounds
        ),
    )
