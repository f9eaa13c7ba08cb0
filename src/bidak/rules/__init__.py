"""Pure backgammon rules: positions, legal plays, notation and game results.

Standard library only, no I/O and no global state. Rule source: ``docs/rules.md``.

>>> from bidak.rules import Position, legal_plays
>>> pos = Position.from_position_id("4HPwATDgc/ABMA")
>>> pos.position_id
'4HPwATDgc/ABMA'
>>> "8/5 6/5" in [str(play) for play in legal_plays(pos, (3, 1))]
True
"""

from bidak.rules.diagram import parse as parse_diagram
from bidak.rules.notation import format_steps, parse_hops
from bidak.rules.outcome import Outcome, Side, WinKind, outcome
from bidak.rules.plays import (
    Alternatives,
    Play,
    Step,
    apply_step,
    check_dice,
    find_play,
    legal_plays,
    plays_and_alternatives,
    single_steps,
    step_alternatives,
)
from bidak.rules.position import BAR, CHECKERS, OFF, Point, Position, Sides, Variant

__all__ = [
    "BAR",
    "CHECKERS",
    "OFF",
    "Alternatives",
    "Outcome",
    "Play",
    "Point",
    "Position",
    "Side",
    "Sides",
    "Step",
    "Variant",
    "WinKind",
    "apply_step",
    "check_dice",
    "find_play",
    "format_steps",
    "legal_plays",
    "outcome",
    "parse_diagram",
    "parse_hops",
    "plays_and_alternatives",
    "single_steps",
    "step_alternatives",
]
