"""GNU Backgammon Match ID (formats.md 2): the cube, score and turn state in 12 characters.

The Match ID is a 9-byte little-endian bit field written as 12 base64 characters. Player 0 and
player 1 are gnubg's indices (player 0 is drawn on top). A Match ID says nothing about the
checkers; :mod:`bidak.formats.gnubgid` pairs it with a Position ID.

>>> info = MatchInfo.from_match_id("cInqAAAAAAAE")
>>> info.length, info.on_roll, info.dice
(7, 1, (5, 2))
>>> info.match_id
'cInqAAAAAAAE'
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from enum import IntEnum
from typing import Final

from bidak.errors import InvalidId

MAX_CUBE_LOG: Final = 15
"""The largest cube gnubg can record is 2**15."""

MAX_FIELD: Final = (1 << 15) - 1
"""Match length and scores are 15-bit fields."""

_CENTRED: Final = 3


class GameState(IntEnum):
    """gnubg's game state (Match ID bits 8-10). The values are the encoded numbers."""

    NOT_STARTED = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


_FINISHED: Final = (GameState.OVER, GameState.RESIGNED, GameState.DROPPED)

# (offset, width) of each field, formats.md 2.
_CUBE: Final = (0, 4)
_OWNER: Final = (4, 2)
_MOVE: Final = (6, 1)
_CRAWFORD: Final = (7, 1)
_STATE: Final = (8, 3)
_TURN: Final = (11, 1)
_DOUBLED: Final = (12, 1)
_RESIGN: Final = (13, 2)
_DIE1: Final = (15, 3)
_DIE2: Final = (18, 3)
_LENGTH: Final = (21, 15)
_SCORE0: Final = (36, 15)
_SCORE1: Final = (51, 15)
_NO_JACOBY: Final = (66, 1)


def _is_int(value: object) -> bool:
    return type(value) is int


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """The state a Match ID holds, field by field (formats.md 2).

    - ``cube_value``: 1, 2, 4 ... 2**15. While a double is pending it is still the old value.
    - ``cube_owner``: 0 or 1 (gnubg's player index), ``None`` when the cube is centred.
    - ``on_roll``: the player whose turn it is (gnubg ``fMove``); a Position ID that goes with this
      Match ID is seen from this player's view.
    - ``turn``: who must act now (gnubg ``fTurn``); differs from ``on_roll`` only while a double or
      a resignation is pending (and not when the doubled player resigns instead of answering,
      which gnubg allows: both flags stay set and the doubler must answer).
    - ``crawford``: this game is the Crawford game.
    - ``resign_stakes``: 0 none, 1 single, 2 gammon, 3 backgammon; the resigning player is the one
      opposite ``turn``.
    - ``dice``: the roll as gnubg stores it (larger die first when gnubg rolled), ``None`` before
      the roll.
    - ``length``: match length, 0 for a money game; ``score``: (player 0, player 1).
    - ``jacoby``: bit 66 *cleared*. gnubg sets bit 66 in every match and whenever the Jacoby rule
      is off, so ``False`` (the default) gives IDs ending in ``E``; IDs from older encoders end in
      ``A`` and decode with ``jacoby=True`` even in a match, where the flag means nothing.
    """

    cube_value: int = 1
    cube_owner: int | None = None
    on_roll: int = 0
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    turn: int = 0
    double_offered: bool = False
    resign_stakes: int = 0
    dice: tuple[int, int] | None = None
    length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False

    def __post_init__(self) -> None:
        _check(self)

    # -- text -----------------------------------------------------------------------------------

    @property
    def cube_log(self) -> int:
        """log2 of the cube value, as stored in the Match ID."""
        return self.cube_value.bit_length() - 1

    @property
    def match_id(self) -> str:
        """The 12-character Match ID."""
        fields = [
            (_CUBE, self.cube_log),
            (_OWNER, _CENTRED if self.cube_owner is None else self.cube_owner),
            (_MOVE, self.on_roll),
            (_CRAWFORD, int(self.crawford)),
            (_STATE, int(self.game_state)),
            (_TURN, self.turn),
            (_DOUBLED, int(self.double_offered)),
            (_RESIGN, self.resign_stakes),
            (_DIE1, self.dice[0] if self.dice else 0),
            (_DIE2, self.dice[1] if self.dice else 0),
            (_LENGTH, self.length),
            (_SCORE0, self.score[0]),
            (_SCORE1, self.score[1]),
            (_NO_JACOBY, int(not self.jacoby)),
        ]
        value = 0
        for (offset, _width), field_value in fields:
            value |= field_value << offset
        return base64.b64encode(value.to_bytes(9, "little")).decode("ascii")

    @classmethod
    def from_match_id(cls, match_id: str) -> MatchInfo:
        """Decode a Match ID; a malformed or impossible one raises :class:`InvalidId`.

        >>> MatchInfo.from_match_id("cBHgAAAAAAAE").double_offered
        True
        >>> MatchInfo.from_match_id("cBHgAAAAAAA")
        Traceback (most recent call last):
        ...
        bidak.errors.InvalidId: a Match ID has 12 characters, not 11: 'cBHgAAAAAAA'
        """
        text = match_id.strip()
        if len(text) != 12:
            raise InvalidId(f"a Match ID has 12 characters, not {len(text)}: {match_id!r}")
        try:
            key = base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            raise InvalidId(f"not a Match ID (bad base64): {match_id!r}") from None
        value = int.from_bytes(key, "little")

        def get(field: tuple[int, int]) -> int:
            offset, width = field
            return (value >> offset) & ((1 << width) - 1)

        owner = get(_OWNER)
        if owner == 2:
            raise InvalidId(f"cube owner 2 is not a player (0, 1 or 3 = centred) in {match_id!r}")
        state = get(_STATE)
        if state > max(GameState):
            raise InvalidId(f"game state {state} is not 0-4 in {match_id!r}")
        die1, die2 = get(_DIE1), get(_DIE2)
        if (die1 == 0) != (die2 == 0) or die1 > 6 or die2 > 6:
            raise InvalidId(f"dice {die1}-{die2} are not a roll (1-6 each, or 0-0) in {match_id!r}")
        try:
            return cls(
                cube_value=1 << get(_CUBE),
                cube_owner=None if owner == _CENTRED else owner,
                on_roll=get(_MOVE),
                crawford=bool(get(_CRAWFORD)),
                game_state=GameState(state),
                turn=get(_TURN),
                double_offered=bool(get(_DOUBLED)),
                resign_stakes=get(_RESIGN),
                dice=(die1, die2) if die1 else None,
                length=get(_LENGTH),
                score=(get(_SCORE0), get(_SCORE1)),
                jacoby=not get(_NO_JACOBY),
            )
        except InvalidId as error:
            raise InvalidId(f"{error} in {match_id!r}") from None


def _check(info: MatchInfo) -> None:
    """Raise :class:`InvalidId` unless ``info`` is a state gnubg could have written."""
    cube = info.cube_value
    if not _is_int(cube) or cube < 1 or cube & (cube - 1) or cube > 1 << MAX_CUBE_LOG:
        raise InvalidId(f"cube value {cube!r} is not a power of two from 1 to {1 << MAX_CUBE_LOG}")
    if info.cube_owner not in (None, 0, 1) or type(info.cube_owner) is bool:
        raise InvalidId(f"cube owner {info.cube_owner!r} is not 0, 1 or None (centred)")
    for name in ("on_roll", "turn"):
        value = getattr(info, name)
        if value not in (0, 1) or not _is_int(value):
            raise InvalidId(f"{name} must be player 0 or 1, not {value!r}")
    for name in ("crawford", "double_offered", "jacoby"):
        if type(getattr(info, name)) is not bool:
            raise InvalidId(f"{name} must be True or False")
    if not isinstance(info.game_state, GameState):
        raise InvalidId(f"{info.game_state!r} is not a GameState")
    if not _is_int(info.resign_stakes) or not 0 <= info.resign_stakes <= 3:
        raise InvalidId(f"resignation {info.resign_stakes!r} is not 0-3")
    dice = info.dice
    if dice is not None and (
        not isinstance(dice, tuple)
        or len(dice) != 2
        or not all(_is_int(d) and 1 <= d <= 6 for d in dice)
    ):
        raise InvalidId(f"dice {dice!r} are not two numbers from 1 to 6")
    score = info.score
    if not isinstance(score, tuple) or len(score) != 2:
        raise InvalidId(f"score {score!r} is not a pair")
    for value in (info.length, *score):
        if not _is_int(value) or not 0 <= value <= MAX_FIELD:
            raise InvalidId(f"match length and scores must be 0-{MAX_FIELD}, not {value!r}")
    _check_consistency(info)


def _check_consistency(info: MatchInfo) -> None:
    length, score = info.length, info.score
    if length == 0 and info.crawford:
        raise InvalidId("a money game has no Crawford game")
    if length:
        if score[0] >= length and score[1] >= length:
            raise InvalidId(f"both players have reached the match length {length}")
        if max(score) >= length and info.game_state not in _FINISHED:
            raise InvalidId(
                f"score {score[0]}-{score[1]} has already won the {length}-point match,"
                " but the game is not over"
            )
    if info.crawford and (
        info.cube_value != 1 or info.cube_owner is not None or info.double_offered
    ):
        raise InvalidId("nobody may double in the Crawford game, but the cube has been turned")
    if info.game_state is GameState.PLAYING:
        if info.double_offered and info.dice is not None:
            raise InvalidId("a double is offered before rolling, but the dice are rolled")
        if info.double_offered and info.cube_owner == 1 - info.on_roll:
            raise InvalidId(f"player {info.on_roll} doubles, but the opponent owns the cube")
        # The turn passes to the opponent with a double or a resignation, and back when the
        # doubled player resigns instead of answering (gnubg allows it and keeps both flags).
        if (info.double_offered != (info.resign_stakes > 0)) != (info.turn != info.on_roll):
            raise InvalidId(
                "the player to act (turn) must differ from the player on roll exactly while"
                " either a double or a resignation is pending"
            )
