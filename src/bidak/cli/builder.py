"""Building a play one step at a time, as a player does on a board (rules.md 10).

A step is accepted only if it can still be completed into one of the roll's legal plays; ``undo``
takes the last step back; the play is ready once its position is a legal play's result and no
further step is expected. Nothing is final before the player confirms.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bidak.errors import IllegalPlay
from bidak.rules import Play, Position, Step, apply_step, single_steps
from bidak.rules.notation import point_name


@dataclass
class PlayBuilder:
    start: Position
    dice: tuple[int, int]
    plays: list[Play]
    steps: list[Step] = field(default_factory=list)
    _positions: list[Position] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._legal = {play.result: play for play in self.plays}
        self._most = max(len(play.steps) for play in self.plays)
        self._positions = [self.start]

    @property
    def current(self) -> Position:
        return self._positions[-1]

    def _dice_left(self) -> list[int]:
        left = [self.dice[0]] * 4 if self.dice[0] == self.dice[1] else list(self.dice)
        for step in self.steps:
            left.remove(self._die_for(step, left))
        return left

    @staticmethod
    def _die_for(step: Step, dice: list[int]) -> int:
        distance = step.start - step.end
        if distance in dice:
            return distance
        # A bear-off with a larger die than the distance.
        return min(d for d in dice if d > distance)

    def _can_finish(self, position: Position, dice: list[int], depth: int) -> bool:
        """Whether the play can still end as a legal play (all legal plays use ``_most`` dice)."""
        if depth == self._most:
            return position in self._legal
        for die in set(dice):
            rest = list(dice)
            rest.remove(die)
            for step in single_steps(position, die):
                if self._can_finish(apply_step(position, step), rest, depth + 1):
                    return True
        return False

    def next_steps(self) -> list[Step]:
        """Every step that can start or continue a legal play from here."""
        depth = len(self.steps)
        if depth == self._most:
            return []
        dice = self._dice_left()
        found: list[Step] = []
        for die in sorted(set(dice), reverse=True):
            rest = list(dice)
            rest.remove(die)
            for step in single_steps(self.current, die):
                if step not in found and self._can_finish(
                    apply_step(self.current, step), rest, depth + 1
                ):
                    found.append(step)
        return found

    def add(self, start: int, end: int) -> Step:
        """Play one step from ``start`` to ``end``; a hop over several dice adds each step."""
        choices = [s for s in self.next_steps() if s.start == start]
        exact = [s for s in choices if s.end == end]
        if exact:
            return self._push(exact[0])
        # A hop using several dice, e.g. 24/13 with 6-5: try each first step on the way.
        for first in choices:
            if first.end > end:
                self._push(first)
                try:
                    self.add(first.end, end)
                    return first
                except IllegalPlay:
                    self.undo()
        raise IllegalPlay(
            f"{point_name(start)}/{point_name(end)} cannot be part of a legal play here"
        )

    def _push(self, step: Step) -> Step:
        self.steps.append(step)
        self._positions.append(apply_step(self.current, step))
        return step

    def undo(self) -> Step | None:
        if not self.steps:
            return None
        self._positions.pop()
        return self.steps.pop()

    @property
    def complete(self) -> Play | None:
        """The legal play the steps make, once no further step can be played."""
        if len(self.steps) == self._most:
            return self._legal.get(self.current)
        return None
