"""Training from one's own mistakes: which decisions of a review become cards, what each card is
about (its game phase and theme), how an answer is graded, and the streak. Pure: standard library
only; the server feeds it plain values (a board as 24 signed counts, a review's JSON decisions).

A board here is the position from the view of the player who decided: ``points[i]`` holds the
checkers on that player's point ``i + 1``, positive for theirs, negative for the opponent's, as
:class:`bidak.rules.Position` keeps them; ``bar`` is (theirs, the opponent's).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from enum import IntEnum, StrEnum
from typing import Any, Final

BANK_LOSS: Final = 0.08
"""A decision that gave up at least this much equity (EMG, normalised to the cube) becomes a card:
doubtful and worse by the issue's words; it is the review's blunder band (engine/review_model)."""

GOOD: Final = 0.001
"""An answer within this of the best is the best (equal plays, rounding)."""
CLOSE: Final = 0.02
"""An answer that gives up less than this is close: the review's doubtful band starts here."""

OPENING_TURNS: Final = 4
"""A decision among the first four plays of a game (two each) belongs to the opening."""


class Phase(StrEnum):
    """Where in a game a decision was made."""

    OPENING = "opening"
    MIDDLE = "middle"
    RACE = "race"
    BEAR_OFF = "bear_off"


class Theme(StrEnum):
    """What a card trains: one theme each, the first that fits in this order (cube cards by the
    right cube action; checker cards from the position and the best play)."""

    BEAR_OFF = "bear_off"
    BEAR_IN = "bear_in"
    RUNNING = "running"
    HITTING = "hitting"
    PRIMING = "priming"
    HOLDING = "holding"
    OPENING = "opening"
    MIDDLE = "middle"
    DOUBLE = "double"
    TAKE = "take"
    PASS = "pass"


class Grade(IntEnum):
    """How an answer went, in FSRS's four ratings (the same numbers as ``fsrs.Rating``)."""

    AGAIN = 1
    HARD = 2
    GOOD = 3
    EASY = 4


@dataclass(frozen=True, slots=True)
class Board:
    """A position from the decider's view (see the module's docstring)."""

    points: tuple[int, ...]
    bar: tuple[int, int] = (0, 0)

    def mine(self, point: int) -> int:
        return max(self.points[point - 1], 0)

    def theirs(self, point: int) -> int:
        return max(-self.points[point - 1], 0)

    @property
    def contact(self) -> bool:
        """Whether any checker of the decider still has an opponent's checker ahead of it."""
        if self.bar[0] or self.bar[1]:
            return True
        highest_mine = max((i for i, n in enumerate(self.points) if n > 0), default=-1)
        lowest_theirs = min((i for i, n in enumerate(self.points) if n < 0), default=24)
        return highest_mine > lowest_theirs

    @property
    def pips(self) -> tuple[int, int]:
        mine = 25 * self.bar[0] + sum(n * p for p, n in enumerate(self.points, 1) if n > 0)
        points = enumerate(self.points, 1)
        theirs = 25 * self.bar[1] + sum(-n * (25 - p) for p, n in points if n < 0)
        return mine, theirs

    def highest(self) -> int:
        """The decider's farthest checker from home: 25 on the bar, 0 when all are off."""
        if self.bar[0]:
            return 25
        return max((p for p, n in enumerate(self.points, 1) if n > 0), default=0)

    def longest_prime(self) -> int:
        """The decider's longest run of made points (two or more checkers each)."""
        best = run = 0
        for point in range(1, 25):
            run = run + 1 if self.mine(point) >= 2 else 0
            best = max(best, run)
        return best

    def anchored(self) -> bool:
        """Whether the decider holds a point in the opponent's home board (points 19 to 24)."""
        return any(self.mine(point) >= 2 for point in range(19, 25))


def phase_of(board: Board, turn: int) -> Phase:
    """The phase of a decision at ``turn`` (plays of the game counted from 1) on ``board``.

    >>> start = Board((-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2))
    >>> phase_of(start, 1).value, phase_of(start, 9).value
    ('opening', 'middle')
    """
    if board.highest() <= 6:
        return Phase.BEAR_OFF
    if not board.contact:
        return Phase.RACE
    if turn <= OPENING_TURNS:
        return Phase.OPENING
    return Phase.MIDDLE


def checker_theme(board: Board, turn: int, best_hits: bool) -> Theme:
    """The theme of a checker play on ``board``; ``best_hits``: the engine's best play hits.

    >>> start = Board((-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2))
    >>> checker_theme(start, 1, best_hits=False).value
    'opening'
    """
    phase = phase_of(board, turn)
    if phase is Phase.BEAR_OFF:
        return Theme.BEAR_OFF
    if board.highest() <= 12 and board.bar[0] == 0:
        return Theme.BEAR_IN
    if phase is Phase.RACE:
        return Theme.RUNNING
    if best_hits:
        return Theme.HITTING
    if board.longest_prime() >= 4:
        return Theme.PRIMING
    mine, theirs = board.pips
    if board.anchored() and mine > theirs:
        return Theme.HOLDING
    if phase is Phase.OPENING:
        return Theme.OPENING
    return Theme.MIDDLE


def cube_theme(decision: Mapping[str, Any]) -> Theme:
    """The theme of a cube card from its review decision: the doubler's decision trains the
    double; the taker's, the right answer (take or pass)."""
    if decision["played"] in ("take", "drop"):
        return Theme.TAKE if decision["best"] == "take" else Theme.PASS
    return Theme.DOUBLE


def bankable(
    decisions: Iterable[Mapping[str, Any]], seats: Iterable[int]
) -> list[Mapping[str, Any]]:
    """The decisions of a review (its JSON, every game's) that become cards for the people at
    ``seats``: counted (forced plays are not), lost at least :data:`BANK_LOSS`; each once, by its
    place (game, turn, kind, seat), in the review's order."""
    people = set(seats)
    chosen: dict[tuple[int, int, str, int], Mapping[str, Any]] = {}
    for decision in decisions:
        if decision["player"] not in people or not decision.get("counted", False):
            continue
        if float(decision["loss"]) < BANK_LOSS:
            continue
        place = (int(decision["game"]), int(decision["turn"]), decision["kind"], decision["player"])
        chosen.setdefault(place, decision)
    return list(chosen.values())


def grade(loss: float) -> Grade:
    """The FSRS rating of an answer that gave up ``loss``: the best is Good, a close answer Hard,
    anything worse Again (the player's own opinion of the card is never asked).

    >>> [grade(x).name for x in (0.0, 0.01, 0.02, 0.3)]
    ['GOOD', 'HARD', 'AGAIN', 'AGAIN']
    """
    if loss <= GOOD:
        return Grade.GOOD
    if loss < CLOSE:
        return Grade.HARD
    return Grade.AGAIN


def cube_loss(decider: str, choice: str, no_double: float, take: float, drop: float) -> float:
    """The equity ``choice`` gives up in a cube decision; ``decider`` is ``"doubler"`` or
    ``"taker"``. The three equities are the doubler's (the review's ND, DT, DP).

    >>> round(cube_loss("doubler", "no_double", 0.4, 0.7, 1.0), 3)
    0.3
    >>> round(cube_loss("taker", "take", 0.4, 1.2, 1.0), 3)
    0.2
    """
    if decider == "doubler":
        doubled = min(take, drop)  # the taker answers with the better action for them
        best = max(no_double, doubled)
        return best - (doubled if choice == "double" else no_double)
    best = min(take, drop)
    return (take if choice == "take" else drop) - best


def loss_of_play(ranking: Sequence[Mapping[str, Any]], result: str) -> float | None:
    """The loss of the play reaching ``result`` (a Position ID) in a card's ranking, or ``None``
    when no ranked play reaches it."""
    for candidate in ranking:
        if candidate["result"] == result:
            return float(candidate["loss"])
    return None


def streak(days: Iterable[date], today: date) -> int:
    """Days in a row, ending today or yesterday, with at least one drill answered.

    >>> d = date(2026, 12, 2)
    >>> streak([d, d - timedelta(1), d - timedelta(3)], d), streak([d - timedelta(1)], d)
    (2, 1)
    >>> streak([d - timedelta(2)], d)
    0
    """
    answered = set(days)
    day = today if today in answered else today - timedelta(days=1)
    count = 0
    while day in answered:
        count += 1
        day -= timedelta(days=1)
    return count
