"""Jellyfish / GNU Backgammon ``.mat`` match text (formats.md 4): reading and writing.

The reader follows gnubg's importer where the format is loose (any case, ``#`` or ``;`` comments,
``Cannot Move``, combined steps such as ``61: 11/4``, ``Beavers``/``Raccoons`` as immediate
redoubles, ``dd:`` with no play when the roll cannot be played) and is strict everywhere else: it
replays every game with :mod:`bidak.rules` and raises :class:`~bidak.errors.InvalidMatchFile`, with
the line number and the reason, for a corrupt line, an illegal play, a cube action out of turn or a
score that disagrees with the results.

A ``Wins`` line without a ``Drops`` before it (and not after the last checker is borne off) is
a resignation, worth 1, 2 or 3 times the cube. A roll written with no play just before a
resignation (gnubg's ``64:``, XG's ``64: ???``) is dropped when the roll could have been played.
The Crawford game is inferred, as gnubg does (see :class:`MatRecord`).

The writer produces gnubg's layout (``%3d) %-27s `` columns, the right column at character 33).
It adds `` and the match`` to the ``Wins`` line that ends a match, and checks the record the
same way as the reader first, so what it writes reads back.

>>> record = read_mat(EXAMPLE)
>>> [game.score_before for game in record.games], record.games[1].winner
([(0, 0), (2, 0)], 0)
>>> read_mat(write_mat(record)) == record
True
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from bidak.errors import BidakError, InvalidMatchFile
from bidak.formats.mat_records import (
    MatAction,
    MatDouble,
    MatGame,
    MatMove,
    MatRecord,
    MatTake,
    MatWin,
)
from bidak.formats.mat_replay import GameReplay, MatchReplay, MatchRules, Rejected
from bidak.formats.notation import format_mat_steps, parse_mat_steps
from bidak.rules import Step, Variant

__all__ = ["EXAMPLE", "read_mat", "write_mat"]

EXAMPLE: Final = """\
; [Site "Example"]
; [EventDate "2024.01.15"]

 3 point match

 Game 1
 Alice : 0                      Bob : 0
  1)                             62: 24/18 13/11
  2) 62: 13/7* 24/22             51: 25/24 13/8
  3) 31: 8/5 6/5                 52: 8/3* 3/1*
  4) 61: 25/24*                   Doubles => 2
  5)  Takes                      43: 25/21 21/18*
  6) 43: 25/21 25/22             31: 8/5 6/5
  7) 52: 21/16 16/14*            31: 25/22 6/5
  8) 44: 22/18 18/14 8/4 8/4     51: 24/23 23/18
  9)  Doubles => 4                Drops
      Wins 2 points

 Game 2
 Alice : 2                      Bob : 0
  1) 62: 24/18 18/16             33: 8/5 8/5 6/3 6/3
  2) 42: 8/4 6/4
      Wins 1 point
"""
"""The complete example of formats.md 4, as gnubg exported it."""

_VARIATIONS: Final = {"backgammon": Variant.STANDARD, "nackgammon": Variant.NACKGAMMON}
_VARIATION_NAMES: Final = {Variant.STANDARD: "Backgammon", Variant.NACKGAMMON: "NackGammon"}
_RIGHT_COLUMN: Final = 33  # gnubg: "%3d) %-27s " puts the right column here
_SPLIT: Final = 17  # a lone item starting this far right is in the right column
_WIN_INDENT: Final = ("      ", " " * (_RIGHT_COLUMN + 1))

_I: Final = re.IGNORECASE
_HEADER: Final = re.compile(r"\s*(\d+)\s+point\s+match\s*", _I)
_META: Final = re.compile(r"[;#]\s*\[\s*([^\"\]]+?)\s+\"(.*)\"\s*\]\s*")
_GAME: Final = re.compile(r"\s*game\s+(\d+)\s*", _I)
_SCORE: Final = re.compile(r"\s*(.*?)\s*:\s*(\d+)\s+(.*?)\s*:\s*(\d+)\s*")
_NUMBERED: Final = re.compile(r"\s*(\d+)\)")
_STEP: Final = r"(?:bar|off|\d{1,2})\*?(?:/(?:bar|off|\d{1,2})\*?)+(?:\(\d\))?(?=\s|$)"
_ITEMS: Final = {
    "move": re.compile(
        rf"(?P<dice>[1-6][1-6]):(?P<steps>(?:[ \t]*{_STEP})(?:[ \t]+{_STEP})*)?"
        r"(?:[ \t]+(?:cannot[ \t]+move|\?{3,4}))?",
        _I,
    ),
    "double": re.compile(
        r"(?P<word>doubles?|beavers?|raccoons?)(?:[ \t]*=>[ \t]*(?P<value>\d+))?", _I
    ),
    "take": re.compile(r"takes?", _I),
    "drop": re.compile(r"drops?", _I),
    "win": re.compile(
        r"wins?[ \t]+(?P<points>\d+)[ \t]+points?(?P<match>[ \t]+and[ \t]+the[ \t]+match)?", _I
    ),
}


@dataclass(frozen=True, slots=True)
class _Item:
    """One action as written: its line, its column (= the player; for a win, the winner)."""

    line: int
    player: int
    kind: str
    match: re.Match[str]


@dataclass(slots=True)
class _RawGame:
    line: int
    number: int
    score_line: int = 0
    names: tuple[str, str] = ("", "")
    score: tuple[int, int] | None = None
    items: list[_Item] | None = None
    last_number: int = 0


def _fail(line: int, reason: str) -> InvalidMatchFile:
    return InvalidMatchFile(f"line {line}: {reason}")


# -- reading ------------------------------------------------------------------------------------


def read_mat(text: str) -> MatRecord:
    """Read and check a ``.mat`` text; raises :class:`~bidak.errors.InvalidMatchFile`."""
    lines = text.removeprefix("\ufeff").splitlines()
    metadata: dict[str, str] = {}
    length: int | None = None
    index = 0
    variant = Variant.STANDARD
    while index < len(lines) and length is None:
        line, index = lines[index], index + 1
        stripped = line.strip()
        if not stripped:
            continue
        if stripped[0] in ";#":
            found = _META.fullmatch(stripped)
            if found and found[1].lower() == "variation":
                variant = _variant(found[2], index)
            elif found:
                metadata[found[1]] = found[2]
            continue
        header = _HEADER.fullmatch(line)
        if not header:
            raise _fail(index, f"expected the ' N point match' header, found {stripped!r}")
        length = int(header[1])
    if length is None:
        raise _fail(len(lines) + 1, "the text ends before the ' N point match' header")
    raw_games = list(_raw_games(lines, index))
    players = raw_games[0].names if raw_games else ("", "")
    record = MatRecord(length, players, metadata, variant)
    replay = MatchReplay(_rules(record))
    games: list[MatGame] = []
    for position, raw in enumerate(raw_games):
        if raw.names != players:
            raise _fail(
                raw.score_line,
                f"the players are {players[0]} and {players[1]} (game 1),"
                f" not {raw.names[0]} and {raw.names[1]}",
            )
        assert raw.score is not None and raw.items is not None
        if raw.number != position + 1:
            raise _fail(raw.line, f"expected game {position + 1}, found game {raw.number}")
        try:
            game = replay.start_game(raw.number, raw.score)
        except Rejected as error:
            raise _fail(raw.score_line, str(error)) from None
        actions = _replay_items(game, raw.items)
        try:
            game.finish(last=position == len(raw_games) - 1)
        except Rejected as error:
            where = raw.items[-1].line if raw.items else raw.score_line
            raise _fail(where, str(error)) from None
        games.append(MatGame(raw.number, raw.score, tuple(actions)))
    return MatRecord(length, players, metadata, variant, tuple(games))


def _variant(name: str, line: int) -> Variant:
    variant = _VARIATIONS.get(name.strip().lower())
    if variant is None:
        raise _fail(line, f"variation {name!r} is not supported (Backgammon or NackGammon)")
    return variant


def _rules(record: MatRecord) -> MatchRules:
    return MatchRules(
        length=record.length,
        players=record.players,
        variant=record.variant,
        crawford_rule=record.crawford_rule,
        jacoby=record.jacoby,
        beavers=record.beavers,
    )


def _raw_games(lines: list[str], start: int) -> Iterator[_RawGame]:
    """Split the body into games and their written actions (no rules checked yet)."""
    game: _RawGame | None = None
    for index in range(start, len(lines)):
        number, line = index + 1, lines[index].rstrip()
        stripped = line.strip()
        if not stripped:
            continue
        if stripped[0] in ";#":
            if stripped[1:].strip().lower().startswith("set pos"):
                raise _fail(number, "edited positions ('Set Pos') are not supported")
            continue
        found = _GAME.fullmatch(line)
        if found:
            if game is not None:
                yield game
            game = _RawGame(number, int(found[1]))
            continue
        if game is None:
            raise _fail(number, f"expected ' Game 1', found {stripped!r}")
        if game.score is None:
            score = _SCORE.fullmatch(line)
            if not score:
                raise _fail(
                    number, f"expected the score line 'name : n   name : n', found {stripped!r}"
                )
            game.names = (score[1], score[3])
            game.score = (int(score[2]), int(score[4]))
            game.score_line = number
            game.items = []
            continue
        assert game.items is not None
        game.items.extend(_read_line(game, number, line))
    if game is not None:
        if game.score is None:
            raise _fail(game.line, "a game needs a score line")
        yield game


def _read_line(game: _RawGame, number: int, line: str) -> list[_Item]:
    numbered = _NUMBERED.match(line)
    if numbered:
        expected = game.last_number + 1
        if int(numbered[1]) != expected:
            raise _fail(number, f"expected move number {expected}), found {numbered[1]})")
        game.last_number = expected
        found = list(_scan(line, numbered.end(), number))
        if len(found) > 2:
            raise _fail(number, "a numbered line holds at most two actions, left and right")
        if len(found) == 2:
            return [
                _Item(number, column, kind, match) for column, (kind, match) in enumerate(found)
            ]
        return [_Item(number, int(m.start() >= _SPLIT), kind, m) for kind, m in found]
    found = list(_scan(line, 0, number))
    if len(found) != 1 or found[0][0] != "win":
        raise _fail(number, f"cannot read {line.strip()!r}")
    kind, match = found[0]
    return [_Item(number, int(match.start() >= _SPLIT), kind, match)]


def _scan(line: str, position: int, number: int) -> Iterator[tuple[str, re.Match[str]]]:
    while True:
        while position < len(line) and line[position].isspace():
            position += 1
        if position >= len(line):
            return
        for kind, pattern in _ITEMS.items():
            match = pattern.match(line, position)
            if match and (match.end() == len(line) or line[match.end()].isspace()):
                yield kind, match
                position = match.end()
                break
        else:
            raise _fail(number, f"cannot read {line[position:].strip()!r}")


def _replay_items(game: GameReplay, items: list[_Item]) -> list[MatAction]:
    actions: list[MatAction] = []
    for index, item in enumerate(items):
        match = item.match
        try:
            if item.kind == "move":
                dice = (int(match["dice"][0]), int(match["dice"][1]))
                written = parse_mat_steps(match["steps"] or "")
                following = items[index + 1] if index + 1 < len(items) else None
                if not written and following and following.kind == "win" and game.can_play(dice):
                    continue  # gnubg and XG: the dice were rolled, then the player resigned
                actions.append(game.move(item.player, dice, written))
            elif item.kind == "double":
                value = int(match["value"]) if match["value"] else None
                actions.append(game.double(item.player, value))
            elif item.kind == "take":
                actions.append(game.take(item.player))
            elif item.kind == "drop":
                actions.append(game.drop(item.player))
            else:
                claims = bool(match["match"])
                actions.append(game.win(item.player, int(match["points"]), claims_match=claims))
        except (Rejected, BidakError) as error:
            raise _fail(item.line, str(error)) from None
    return actions


# -- writing ------------------------------------------------------------------------------------


def write_mat(record: MatRecord) -> str:
    """The record as ``.mat`` text in gnubg's layout.

    The record is checked first, like a file being read (the error names the game and the
    action); its moves must be one step per die with the hits that happen.
    """
    _check(record)
    out: list[str] = []
    for key, value in record.metadata.items():
        out.append(f'; [{key} "{value}"]')
    if record.variant is not Variant.STANDARD:
        out.append(f'; [Variation "{_VARIATION_NAMES[record.variant]}"]')
    if out:
        out.append("")
    out += [f" {record.length} point match", ""]
    for game in record.games:
        out += _write_game(record, game)
    return "\n".join(out).rstrip("\n") + "\n"


def _check(record: MatRecord) -> None:
    if type(record.length) is not int or record.length < 0:
        raise InvalidMatchFile(f"match length {record.length!r} is not a whole number >= 0")
    for name in record.players:
        if not name.strip() or name != name.strip() or "\n" in name or " : " in name:
            raise InvalidMatchFile(f"player name {name!r} cannot be written in a score line")
    for key, value in record.metadata.items():
        if key.strip().lower() == "variation":
            raise InvalidMatchFile("put the variation in MatRecord.variant, not in the metadata")
        if any(c in key for c in '"]\n') or key != key.strip() or not key or "\n" in value:
            raise InvalidMatchFile(f"metadata {key!r}: {value!r} cannot be written")
    replay = MatchReplay(_rules(record))
    for position, game in enumerate(record.games):
        where = f"game {game.number}"
        try:
            state = replay.start_game(game.number, game.score_before)
            for index, action in enumerate(game.actions, 1):
                where = f"game {game.number}, action {index}"
                if isinstance(action, MatMove):
                    action = MatMove(
                        action.player, action.dice, tuple(Step(*s) for s in action.steps)
                    )
                replayed = state.apply(action)
                if isinstance(replayed, MatMove) and replayed != action:
                    raise Rejected(
                        f"the steps should be {format_mat_steps(replayed.steps)!r}"
                        " (one step per die, with the hits that happen)"
                    )
            where = f"game {game.number}"
            state.finish(last=position == len(record.games) - 1)
        except (Rejected, BidakError) as error:
            raise InvalidMatchFile(f"{where}: {error}") from None


def _write_game(record: MatRecord, game: MatGame) -> list[str]:
    left_score = f"{record.players[0]} : {game.score_before[0]}"
    out = [f" Game {game.number}", f" {left_score:<31}{record.players[1]} : {game.score_before[1]}"]
    number = 1
    left: str | None = None  # the left column of a line not written yet
    offers = 0
    for action in game.actions:
        if isinstance(action, MatWin):
            plural = "" if action.points == 1 else "s"
            text = f"Wins {action.points} point{plural}"
            if record.length and game.score_before[action.player] + action.points >= record.length:
                text += " and the match"
            if left is not None and action.player == 1:
                out.append(f"{number:3d}) {left:<27}  {text}")
            else:
                if left is not None:
                    out.append(f"{number:3d}) {left}".rstrip())
                out.append(_WIN_INDENT[action.player] + text)
            left = None
            continue
        if isinstance(action, MatMove):
            text = f"{action.dice[0]}{action.dice[1]}: {format_mat_steps(action.steps)}"
            offers = 0
        elif isinstance(action, MatDouble):
            word = ("Doubles", "Beavers")[offers] if offers < 2 else "Raccoons"
            text = f" {word} => {action.value}"
            offers += 1
        elif isinstance(action, MatTake):
            text, offers = " Takes", 0
        else:
            text, offers = " Drops", 0
        if action.player == 0:
            if left is not None:
                out.append(f"{number:3d}) {left}".rstrip())
                number += 1
            left = text
        else:
            out.append(f"{number:3d}) {left or '':<27} {text}".rstrip())
            number += 1
            left = None
    if left is not None:
        out.append(f"{number:3d}) {left}".rstrip())
    out.append("")
    return out
