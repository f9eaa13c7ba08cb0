"""XGID, eXtreme Gammon's position text (formats.md 3), both directions.

``XGID=<26 board chars>:CV:CP:T:D:S1:S2:CJ:ML:MC``. XG numbers the board from the *bottom*
player's view and says with ``T`` who is on roll (1 = bottom, -1 = top). Bidak keeps one
perspective rule, so :attr:`Xgid.position` is seen by the player ``T`` (the player on roll, or the
doubler while a double is pending), exactly as :class:`~bidak.rules.Position` always is; the
bottom player's board is :attr:`Xgid.bottom_view`. Every other field keeps XG's own sides: the
cube owner and ``turn`` are 1 (bottom), 0 (centred) or -1 (top), scores are named bottom and top.

gnubg's reader (``set.c``) maps bottom / uppercase to gnubg player 1 and top / lowercase to
player 0; :meth:`Xgid.to_gnubg` and :meth:`Xgid.from_gnubg` follow it.

>>> xgid = Xgid.parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10")
>>> xgid.dice, xgid.length, xgid.position.position_id
((5, 2), 7, '4HPwATDgc/ABMA')
>>> str(xgid)
'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10'
>>> position, info = xgid.to_gnubg()
>>> info.match_id
'cInqAAAAAAAE'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Final

from bidak.errors import InvalidId, InvalidPosition
from bidak.formats.matchid import MAX_CUBE_LOG, GameState, MatchInfo
from bidak.rules import Position, Sides

BOTTOM: Final = 1
TOP: Final = -1
CENTRED: Final = 0
DEFAULT_MAX_CUBE_LOG: Final = 10

_PREFIX: Final = "XGID="
_INT: Final = re.compile(r"-?\d+")
_LETTERS: Final = "ABCDEFGHIJKLMNOP"  # 1..16 checkers


class CubeOffer(Enum):
    """The cube part of XGID field D when no dice are shown. The value is XG's text."""

    NONE = "00"
    """About to roll, or to decide whether to double."""
    DOUBLED = "D"
    """``T`` has doubled; the opponent must take or pass (the cube still shows the old value)."""
    BEAVERED = "B"
    """The opponent beavered."""
    RACCOONED = "R"
    """The doubler then raccooned."""


@dataclass(frozen=True, slots=True)
class Xgid:
    """One XGID. ``position`` is seen by the player ``turn`` (see the module docstring)."""

    position: Position
    cube_value: int = 1
    cube_owner: int = CENTRED
    turn: int = BOTTOM
    dice: tuple[int, int] | None = None
    cube_offer: CubeOffer = CubeOffer.NONE
    bottom_score: int = 0
    top_score: int = 0
    crawford: bool = False
    """Match play only: this is the Crawford game (CJ = 1)."""
    jacoby: bool = False
    """Money play only: the Jacoby rule (CJ bit 1)."""
    beaver: bool = False
    """Money play only: beavers allowed (CJ bit 2)."""
    length: int = 0
    max_cube_log: int = DEFAULT_MAX_CUBE_LOG

    def __post_init__(self) -> None:
        _check(self)

    # -- views ----------------------------------------------------------------------------------

    @property
    def cube_log(self) -> int:
        return self.cube_value.bit_length() - 1

    @property
    def bottom_view(self) -> Position:
        """The board seen by the bottom player (who may not be on roll)."""
        return self.position if self.turn == BOTTOM else self.position.flipped()

    # -- text -----------------------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str) -> Xgid:
        """Read an XGID, with or without the ``XGID=`` prefix.

        >>> Xgid.parse("-B-A--A----------------ba-:1:-1:1:63:4:5:0:7:10").cube_owner
        -1
        """
        body = text.strip()
        if body[: len(_PREFIX)].upper() == _PREFIX:
            body = body[len(_PREFIX) :]
        fields = body.split(":")
        if len(fields) != 10:
            raise InvalidId(f"an XGID has 10 fields separated by ':', not {len(fields)}: {text!r}")
        board, cv, cp, t, d, s1, s2, cj, ml, mc = fields
        try:
            numbers = {
                name: _number(name, value)
                for name, value in (
                    ("cube (CV)", cv),
                    ("cube owner (CP)", cp),
                    ("turn (T)", t),
                    ("score S1", s1),
                    ("score S2", s2),
                    ("CJ", cj),
                    ("match length (ML)", ml),
                    ("max cube (MC)", mc),
                )
            }
            cube_log = numbers["cube (CV)"]
            if not 0 <= cube_log <= MAX_CUBE_LOG:
                raise InvalidId(f"cube field CV must be 0-{MAX_CUBE_LOG}, not {cube_log}")
            turn = numbers["turn (T)"]
            if turn not in (BOTTOM, TOP):
                raise InvalidId(f"turn field T must be 1 or -1, not {turn}")
            dice, action = _decision(d)
            length = numbers["match length (ML)"]
            flags = numbers["CJ"]
            if length > 0 and flags not in (0, 1):
                raise InvalidId(f"in a match CJ is 0 or 1 (Crawford game), not {flags}")
            if length == 0 and not 0 <= flags <= 3:
                raise InvalidId(f"in money play CJ is 0-3 (Jacoby + 2 x beaver), not {flags}")
            return cls(
                position=_read_board(board, turn),
                cube_value=1 << cube_log,
                cube_owner=numbers["cube owner (CP)"],
                turn=turn,
                dice=dice,
                cube_offer=action,
                bottom_score=numbers["score S1"],
                top_score=numbers["score S2"],
                crawford=length > 0 and flags == 1,
                jacoby=length == 0 and bool(flags & 1),
                beaver=length == 0 and bool(flags & 2),
                length=length,
                max_cube_log=numbers["max cube (MC)"],
            )
        except InvalidId as error:
            raise InvalidId(f"{error} in {text!r}") from None

    def __str__(self) -> str:
        view = self.bottom_view
        chars = [_letters(view.bar.opponent).lower()]
        for count in view.points:
            chars.append(_letters(count) if count >= 0 else _letters(-count).lower())
        chars.append(_letters(view.bar.mover))
        decision = self.cube_offer.value if self.dice is None else f"{self.dice[0]}{self.dice[1]}"
        flags = int(self.crawford) if self.length else int(self.jacoby) + 2 * int(self.beaver)
        return (
            f"{_PREFIX}{''.join(chars)}:{self.cube_log}:{self.cube_owner}:{self.turn}:{decision}"
            f":{self.bottom_score}:{self.top_score}:{flags}:{self.length}:{self.max_cube_log}"
        )

    # -- GNU Backgammon -------------------------------------------------------------------------

    def to_gnubg(self) -> tuple[Position, MatchInfo]:
        """The same state as gnubg's (position seen by ``info.on_roll``, Match ID fields).

        Bottom is gnubg player 1 and top player 0. gnubg has no beaver state, so ``B`` and ``R``
        raise :class:`InvalidId`; the maximum cube and the beaver flag have no place in a Match ID.
        """
        if self.cube_offer in (CubeOffer.BEAVERED, CubeOffer.RACCOONED):
            raise InvalidId(f"gnubg's Match ID has no beaver or raccoon state: {self}")
        on_roll = _player(self.turn)
        doubled = self.cube_offer is CubeOffer.DOUBLED
        info = MatchInfo(
            cube_value=self.cube_value,
            cube_owner=None if self.cube_owner == CENTRED else _player(self.cube_owner),
            on_roll=on_roll,
            crawford=self.crawford,
            game_state=GameState.PLAYING,
            turn=1 - on_roll if doubled else on_roll,
            double_offered=doubled,
            dice=self.dice,
            length=self.length,
            score=(self.top_score, self.bottom_score),
            jacoby=self.jacoby,
        )
        return self.position, info

    @classmethod
    def from_gnubg(
        cls,
        position: Position,
        info: MatchInfo,
        *,
        beaver: bool = True,
        max_cube_log: int = DEFAULT_MAX_CUBE_LOG,
    ) -> Xgid:
        """The XGID of a gnubg state; ``position`` is seen by ``info.on_roll``.

        A Match ID does not say whether beavers are allowed or how high the cube may go, so money
        games take ``beaver`` (gnubg's default: allowed) and every game ``max_cube_log``. In a
        match the Match ID's Jacoby bit is ignored. States an XGID cannot express (no game being
        played, a resignation pending) raise :class:`InvalidId`.
        """
        if info.game_state is not GameState.PLAYING:
            raise InvalidId(f"an XGID describes a game being played, not {info.game_state.name}")
        if info.resign_stakes:
            raise InvalidId("an XGID cannot express a pending resignation")
        money = info.length == 0
        return cls(
            position=position,
            cube_value=info.cube_value,
            cube_owner=CENTRED if info.cube_owner is None else _side(info.cube_owner),
            turn=_side(info.on_roll),
            dice=info.dice,
            cube_offer=CubeOffer.DOUBLED if info.double_offered else CubeOffer.NONE,
            bottom_score=info.score[1],
            top_score=info.score[0],
            crawford=info.crawford,
            jacoby=money and info.jacoby,
            beaver=money and beaver,
            length=info.length,
            max_cube_log=max_cube_log,
        )


def from_xgid(text: str) -> tuple[Position, MatchInfo]:
    """An XGID as gnubg's state: ``Xgid.parse(text).to_gnubg()``.

    >>> position, info = from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10")
    >>> position.position_id, info.match_id
    ('4HPwATDgc/ABMA', 'cAkAAAAAAAAA')
    """
    return Xgid.parse(text).to_gnubg()


def to_xgid(
    position: Position,
    info: MatchInfo,
    *,
    beaver: bool = True,
    max_cube_log: int = DEFAULT_MAX_CUBE_LOG,
) -> str:
    """The XGID text of a gnubg state (see :meth:`Xgid.from_gnubg`)."""
    return str(Xgid.from_gnubg(position, info, beaver=beaver, max_cube_log=max_cube_log))


def _player(side: int) -> int:
    """gnubg's player index of an XGID side: bottom is player 1, top player 0."""
    return 1 if side == BOTTOM else 0


def _side(player: int) -> int:
    return BOTTOM if player == 1 else TOP


def _letters(count: int) -> str:
    return "-" if count == 0 else _LETTERS[count - 1]


def _number(name: str, text: str) -> int:
    if not _INT.fullmatch(text):
        raise InvalidId(f"{name} must be a whole number, not {text!r}")
    return int(text)


def _decision(text: str) -> tuple[tuple[int, int] | None, CubeOffer]:
    upper = text.upper()
    for action in CubeOffer:
        if upper == action.value:
            return None, action
    if len(text) == 2 and all(c in "123456" for c in text):
        return (int(text[0]), int(text[1])), CubeOffer.NONE
    raise InvalidId(f"field D must be 00, D, B, R or two dice 1-6, not {text!r}")


def _count(char: str, index: int) -> int:
    """Checkers in one board character: positive for bottom (A-P), negative for top (a-p)."""
    if char == "-":
        return 0
    if char in _LETTERS:
        return _LETTERS.index(char) + 1
    if char in _LETTERS.lower():
        return -(_LETTERS.lower().index(char) + 1)
    raise InvalidId(f"board character {index} is {char!r}, not '-', A-P or a-p")


def _read_board(board: str, turn: int) -> Position:
    if len(board) != 26:
        raise InvalidId(f"the XGID board has 26 characters, not {len(board)}")
    counts = [_count(char, index) for index, char in enumerate(board)]
    if counts[0] > 0:
        raise InvalidId("board character 0 is the top player's bar: lowercase or '-'")
    if counts[25] < 0:
        raise InvalidId("board character 25 is the bottom player's bar: uppercase or '-'")
    try:
        bottom = Position(tuple(counts[1:25]), Sides(counts[25], -counts[0]))
    except InvalidPosition as error:
        raise InvalidId(str(error)) from None
    return bottom if turn == BOTTOM else bottom.flipped()


def _check(xgid: Xgid) -> None:
    """Raise :class:`InvalidId` unless the fields describe a game XG could be playing."""
    if not isinstance(xgid.position, Position):
        raise InvalidId(f"{xgid.position!r} is not a Position")
    cube = xgid.cube_value
    if type(cube) is not int or cube < 1 or cube & (cube - 1) or cube > 1 << MAX_CUBE_LOG:
        raise InvalidId(f"cube value {cube!r} is not a power of two from 1 to {1 << MAX_CUBE_LOG}")
    if xgid.cube_owner not in (BOTTOM, CENTRED, TOP) or type(xgid.cube_owner) is not int:
        raise InvalidId(f"cube owner {xgid.cube_owner!r} is not 1 (bottom), 0 or -1 (top)")
    if xgid.turn not in (BOTTOM, TOP) or type(xgid.turn) is not int:
        raise InvalidId(f"turn {xgid.turn!r} is not 1 (bottom) or -1 (top)")
    dice = xgid.dice
    if dice is not None and (
        not isinstance(dice, tuple)
        or len(dice) != 2
        or not all(type(d) is int and 1 <= d <= 6 for d in dice)
    ):
        raise InvalidId(f"dice {dice!r} are not two numbers from 1 to 6")
    if not isinstance(xgid.cube_offer, CubeOffer):
        raise InvalidId(f"{xgid.cube_offer!r} is not a CubeOffer")
    if dice is not None and xgid.cube_offer is not CubeOffer.NONE:
        raise InvalidId("field D holds either the dice or a cube action, not both")
    for name in ("bottom_score", "top_score", "length", "max_cube_log"):
        value = getattr(xgid, name)
        if type(value) is not int or value < 0:
            raise InvalidId(f"{name} must be a whole number >= 0, not {value!r}")
    if xgid.max_cube_log > MAX_CUBE_LOG:
        raise InvalidId(f"max cube (MC) must be 0-{MAX_CUBE_LOG}, not {xgid.max_cube_log}")
    for name in ("crawford", "jacoby", "beaver"):
        if type(getattr(xgid, name)) is not bool:
            raise InvalidId(f"{name} must be True or False")
    _check_rules(xgid)


def _check_rules(xgid: Xgid) -> None:
    if xgid.length:
        if max(xgid.bottom_score, xgid.top_score) >= xgid.length:
            raise InvalidId(
                f"score {xgid.bottom_score}-{xgid.top_score} has already won the"
                f" {xgid.length}-point match"
            )
        if xgid.jacoby or xgid.beaver:
            raise InvalidId("Jacoby and beavers are money-play rules, not match rules")
    elif xgid.crawford:
        raise InvalidId("a money game has no Crawford game")
    if xgid.crawford and (xgid.cube_value != 1 or xgid.cube_owner != CENTRED):
        raise InvalidId("nobody may double in the Crawford game, but the cube has been turned")
    action = xgid.cube_offer
    if action is not CubeOffer.NONE:
        if xgid.crawford:
            raise InvalidId("nobody may double in the Crawford game")
        if action is CubeOffer.DOUBLED and xgid.cube_owner == -xgid.turn:
            raise InvalidId("the player on roll doubles, but the opponent owns the cube")
    if action in (CubeOffer.BEAVERED, CubeOffer.RACCOONED) and not xgid.beaver:
        raise InvalidId("a beaver or raccoon needs money play with beavers allowed (CJ 2 or 3)")
