"""Jellyfish / gnubg .mat text (formats.md 4): the example, gnubg's quirks, round trips, errors."""

from __future__ import annotations

import dataclasses
import re

import pytest

from bidak.errors import InvalidMatchFile
from bidak.formats import (
    MatDouble,
    MatDrop,
    MatGame,
    MatMove,
    MatRecord,
    MatTake,
    MatWin,
    format_steps,
    read_mat,
    write_mat,
)
from bidak.formats.mat import EXAMPLE
from bidak.rules import Step, Variant
from tests.formats.strategies import random_record

ALICE, BOB = 0, 1


def _move(player: int, dice: str, text: str) -> MatMove:
    steps = []
    for part in text.split():
        start, end = part.rstrip("*").split("/")
        steps.append(Step(int(start), int(end), part.endswith("*")))
    return MatMove(player, (int(dice[0]), int(dice[1])), tuple(steps))


GAME_1 = (
    _move(BOB, "62", "24/18 13/11"),
    _move(ALICE, "62", "13/7* 24/22"),
    _move(BOB, "51", "25/24 13/8"),
    _move(ALICE, "31", "8/5 6/5"),
    _move(BOB, "52", "8/3* 3/1*"),
    _move(ALICE, "61", "25/24*"),
    MatDouble(BOB, 2),
    MatTake(ALICE),
    _move(BOB, "43", "25/21 21/18*"),
    _move(ALICE, "43", "25/21 25/22"),
    _move(BOB, "31", "8/5 6/5"),
    _move(ALICE, "52", "21/16 16/14*"),
    _move(BOB, "31", "25/22 6/5"),
    _move(ALICE, "44", "22/18 18/14 8/4 8/4"),
    _move(BOB, "51", "24/23 23/18"),
    MatDouble(ALICE, 4),
    MatDrop(BOB),
    MatWin(ALICE, 2),
)
GAME_2 = (
    _move(ALICE, "62", "24/18 18/16"),
    _move(BOB, "33", "8/5 8/5 6/3 6/3"),
    _move(ALICE, "42", "8/4 6/4"),
    MatWin(ALICE, 1),
)


def test_the_formats_example_reads_as_described() -> None:
    record = read_mat(EXAMPLE)
    assert record.length == 3
    assert record.players == ("Alice", "Bob")
    assert record.metadata == {"Site": "Example", "EventDate": "2024.01.15"}
    assert record.variant is Variant.STANDARD
    game_1, game_2 = record.games
    assert (game_1.number, game_1.score_before, game_1.actions) == (1, (0, 0), GAME_1)
    assert (game_1.winner, game_1.points, game_1.score_after) == (ALICE, 2, (2, 0))
    assert (game_2.number, game_2.score_before, game_2.actions) == (2, (2, 0), GAME_2)
    # Game 2 is the Crawford game (Alice is 1-away); Bob resigns a single game.
    assert record.crawford_game == 2 and record.crawford_rule
    assert (game_2.winner, game_2.points, game_2.score_after) == (ALICE, 1, (3, 0))


def test_writing_the_example_gives_gnubgs_text() -> None:
    record = read_mat(EXAMPLE)
    written = write_mat(record)
    # Identical to gnubg's export, except that Bidak notes the end of the match.
    assert written == EXAMPLE.replace("Wins 1 point\n", "Wins 1 point and the match\n")
    assert read_mat(written) == record


def test_layout_columns() -> None:
    written = write_mat(read_mat(EXAMPLE)).splitlines()
    assert written[7] == "  1)" + " " * 29 + "62: 24/18 13/11"
    assert written[8].index("51:") == 33
    assert written[6].index("Bob") == 32


ROUND_TRIP = [
    (seed, length, Variant.NACKGAMMON if seed % 5 == 0 else Variant.STANDARD)
    for seed, length in enumerate(
        [1, 3, 5, 7, 9, 11, 0, 0, 0, 0, 0, 0, 3, 5, 7, 0, 0, 0, 9, 11, 13, 15, 0, 0], 1
    )
]


@pytest.mark.parametrize(("seed", "length", "variant"), ROUND_TRIP)
def test_random_matches_round_trip(seed: int, length: int, variant: Variant) -> None:
    record = random_record(seed, length, variant, money_games=4)
    text = write_mat(record)
    assert read_mat(text) == record
    assert write_mat(read_mat(text)) == text


def test_random_matches_cover_the_ground() -> None:
    """The round-trip records above hold thousands of plays and every kind of action."""
    moves = 0
    kinds: set[str] = set()
    for seed, length, variant in ROUND_TRIP:
        for game in random_record(seed, length, variant, money_games=4).games:
            moves += sum(isinstance(action, MatMove) for action in game.actions)
            kinds.update(type(action).__name__ for action in game.actions)
            if any(isinstance(a, MatMove) and not a.steps for a in game.actions):
                kinds.add("no move")
            if game.winner is None:
                kinds.add("unfinished")
    assert moves > 4000
    assert kinds == {
        "MatMove",
        "MatDouble",
        "MatTake",
        "MatDrop",
        "MatWin",
        "no move",
        "unfinished",
    }


# -- what gnubg and XG write ----------------------------------------------------------------------

GNUBG_QUIRKS = """\
# a comment in gnubg's other style
; [Player 1 "Alice"]
; [Variation "Backgammon"]
; [Jacoby "Off"]

 0 POINT MATCH

 GAME 1
 ALICE : 0                      BOB : 0
  1) 62: 13/7 13/11              55: 13/8(4)
  2) 42: 24/20 13/11             66: 8/2 8/2 8/2 8/2
  3) 62: 11/3                    62: 13/7 8/6
  4) 62: 24/18*/16               62: bar/23 24/18*
  5) 22: Cannot Move              DOUBLES => 2
  6)  TAKES
                                  wins 2 points
"""


def test_gnubgs_quirks_are_read() -> None:
    """Any case, '#' comments, Cannot Move, counts, combined steps, 'bar', stops."""
    record = read_mat(GNUBG_QUIRKS)
    assert record.length == 0 and record.players == ("ALICE", "BOB")
    assert record.metadata == {"Player 1": "Alice", "Jacoby": "Off"}
    actions = record.games[0].actions
    assert actions[1] == _move(BOB, "55", "13/8 13/8 13/8 13/8")
    assert format_steps(actions[4].steps) == "11/3"  # type: ignore[union-attr]
    assert len(actions[4].steps) == 2  # type: ignore[union-attr]
    assert actions[6] == _move(ALICE, "62", "24/18* 18/16")
    assert actions[7] == _move(BOB, "62", "25/23 24/18*")
    assert actions[8:] == (
        MatMove(ALICE, (2, 2), ()),
        MatDouble(BOB, 2),
        MatTake(ALICE),
        MatWin(BOB, 2),
    )
    # The blank form of a dance, as gnubg writes it.
    assert read_mat(GNUBG_QUIRKS.replace("22: Cannot Move", "22:            ")) == record


def test_roll_before_resignation_is_dropped() -> None:
    # gnubg writes the dice of a roll made just before resigning (XG writes '???').
    for blank in ("64:", "64: ???"):
        text = EXAMPLE.replace("  2) 42: 8/4 6/4", f"  2) {blank}")
        record = read_mat(text)
        assert record.games[1].actions[-2:] == (_move(BOB, "33", "8/5 8/5 6/3 6/3"), MatWin(0, 1))


def test_beavers_and_raccoons() -> None:
    text = """\
 0 point match

 Game 1
 Alice : 0                      Bob : 0
  1) 31: 8/5 6/5                 64: 24/18 13/9
  2)  Doubles => 2                Beavers => 4
  3) 62: 24/18 13/11              Doubles => 8
  4)  Beavers => 16               Raccoons => 32
  5)  Takes
      Wins 32 points
"""
    game = read_mat(text).games[0]
    # Alice's roll on line 3 takes the beaver (gnubg) and Bob owns the 4-cube: he redoubles,
    # Alice beavers, Bob raccoons and Alice takes; Bob then resigns.
    assert game.actions[2:4] == (MatDouble(ALICE, 2), MatDouble(BOB, 4))
    assert game.actions[5:] == (
        MatDouble(BOB, 8),
        MatDouble(ALICE, 16),
        MatDouble(BOB, 32),
        MatTake(ALICE),
        MatWin(ALICE, 32),
    )
    assert read_mat(write_mat(read_mat(text))) == read_mat(text)
    with pytest.raises(InvalidMatchFile, match=r"line 6: .*money play"):
        read_mat(text.replace(" 0 point", " 5 point").replace("16 points", "1 point"))


def test_crawford_off_allows_doubles_in_game_two() -> None:
    text = EXAMPLE.replace(
        "  2) 42: 8/4 6/4\n      Wins 1 point",
        "  2)  Doubles => 2                Drops\n      Wins 1 point",
    )
    with pytest.raises(InvalidMatchFile, match="line 22: nobody may double in the Crawford game"):
        read_mat(text)
    record = read_mat('; [Crawford "Off"]\n' + text)
    assert record.crawford_game is None
    assert record.games[1].actions[-3:] == (MatDouble(ALICE, 2), MatDrop(BOB), MatWin(ALICE, 1))


def test_an_unfinished_last_game_is_kept() -> None:
    text = EXAMPLE[: EXAMPLE.index("  2) 42")]
    record = read_mat(text)
    assert record.games[1].winner is None and record.games[1].points == 0
    assert read_mat(write_mat(record)) == record


# -- malformed input ------------------------------------------------------------------------------


def _edit(line: int, new: str | None) -> str:
    """EXAMPLE with line ``line`` (1-based) replaced, or removed when ``new`` is None."""
    lines = EXAMPLE.splitlines()
    if new is None:
        del lines[line - 1]
    else:
        lines[line - 1] = new
    return "\n".join(lines) + "\n"


BAD = [
    ("", 1, "ends before the ' N point match' header"),
    (_edit(4, " 3 points match"), 4, "header"),
    (_edit(4, None).replace(" Game 1", "Game 1"), 5, "header"),
    ('; [Variation "HyperGammon (1)"]\n 3 point match\n', 1, "not supported"),
    (_edit(6, " Alice : 0   Bob : 0"), 6, "expected ' Game 1'"),
    (_edit(6, " Game 2"), 6, "expected game 1, found game 2"),
    (_edit(7, " Alice 0   Bob 0"), 7, "expected the score line"),
    (_edit(7, " Alice : 1                      Bob : 0"), 20, "already won 3-0"),
    (_edit(8, "  1) 62: 24/18 13/11"), 9, "Bob's turn"),
    (_edit(8, "  1)                             66: 24/18 24/18 13/7 13/7"), 8, "opening roll"),
    (_edit(9, "  3) 62: 13/7* 24/22             51: 25/24 13/8"), 9, "expected move number 2"),
    (_edit(10, "  3) 31: 8/4 6/5                 52: 8/3* 3/1*"), 10, "not a legal play of 31"),
    (_edit(10, "  3) 71: 8/5 6/5                 52: 8/3* 3/1*"), 10, "cannot read '71: 8/5"),
    (_edit(10, "  3) 31: 8/5 6/x                 52: 8/3* 3/1*"), 10, "cannot read"),
    (_edit(10, "  3) 31: 8/5 6/5   52: 8/3* 3/1*   43: 6/2"), 10, "at most two actions"),
    (_edit(10, "  3) hello"), 10, "cannot read 'hello'"),
    (_edit(11, "  4) 61: 25/24*                   Doubles => 3"), 11, "the cube goes to 2, not 3"),
    (_edit(11, "  4) 61: 25/24*                   Drops"), 11, "no double to drop"),
    (_edit(12, "  5)                              Takes"), 12, "Bob cannot take their own double"),
    (_edit(12, "  5) 43: 25/21 21/18*"), 12, "Alice must first take or drop"),
    (_edit(12, "  5)  Takes                       Doubles => 4"), 12, "Bob may double only"),
    (_edit(13, "  6) 43: 25/21 25/22              Doubles => 4"), 13, "but Alice owns the cube"),
    (_edit(16, "  9)  Doubles => 4"), 17, "never taken or dropped"),
    (_edit(17, "      Wins 4 points"), 17, "wins 2 points here"),
    (_edit(17, " " * 34 + "Wins 2 points"), 17, "Alice won this game"),
    (_edit(17, "      Wins 2 points and the match"), 17, "'and the match'"),
    (_edit(17, None), 16, "no 'Wins' line follows"),
    (_edit(17, "      Wins two points"), 17, "cannot read 'Wins two points'"),
    (_edit(17, "  garbage"), 17, "cannot read 'garbage'"),
    (_edit(20, " Alice : 1                      Bob : 0"), 20, "score before game 2 is 2-0"),
    (_edit(20, " Carol : 2                      Bob : 0"), 20, "the players are Alice and Bob"),
    (_edit(19, " Game 3"), 19, "expected game 2, found game 3"),
    (_edit(20, "  1) 62: 24/18 18/16"), 20, "expected the score line"),
    (_edit(21, "  1) 62: 24/18 18/16              Doubles => 2"), 21, "Crawford game"),
    (_edit(23, "      Wins 4 points"), 23, "1, 2 or 3 times the cube"),
    (_edit(14, "; Set Pos=-b----E-C---eE---c-e----B-/0"), 14, "Set Pos"),
    (EXAMPLE + " Game 3\n Alice : 3                      Bob : 0\n", 25, "already won 3-0"),
    (EXAMPLE + " Game 3\n", 24, "a game needs a score line"),
    (
        EXAMPLE.replace(" Game 2\n Alice : 2                      Bob : 0\n", " Game 2\n"),
        20,
        "score",
    ),
    (_edit(9, "  2) 62: 13/7* 24/22             51: 25/24 13/8 Drops"), 9, "at most two actions"),
    (_edit(9, "  2) 62: 13/7* 24/22             51: 25/24 13/8 xyz"), 9, "cannot read 'xyz'"),
]


@pytest.mark.parametrize(("text", "line", "reason"), BAD)
def test_malformed_files_name_the_line(text: str, line: int, reason: str) -> None:
    with pytest.raises(InvalidMatchFile) as error:
        read_mat(text)
    message = str(error.value)
    assert message.startswith(f"line {line}: "), message
    assert re.search(re.escape(reason), message), message


# -- writing checks the record --------------------------------------------------------------------


def _example_with(game: int, actions: tuple[object, ...]) -> MatRecord:
    record = read_mat(EXAMPLE)
    games = list(record.games)
    games[game - 1] = dataclasses.replace(games[game - 1], actions=actions)  # type: ignore[arg-type]
    return dataclasses.replace(record, games=tuple(games))


@pytest.mark.parametrize(
    ("actions", "reason"),
    [
        ((_move(BOB, "62", "24/18 13/11*"), *GAME_1[1:]), "action 1: the steps should be"),
        ((_move(BOB, "62", "24/16"), *GAME_1[1:]), "action 1: the steps should be"),
        (
            (_move(BOB, "62", "24/18 13/12"), *GAME_1[1:]),
            "action 1: .*13/12 cannot be moved with 6-2",
        ),
        ((*GAME_1[:6], MatDouble(ALICE, 2), *GAME_1[7:]), "action 7: only Bob"),
        ((*GAME_1[:-1], MatWin(ALICE, 4)), "action 18: Alice wins 2 points"),
        ((*GAME_1[:-1], MatWin(2, 2)), "action 18: player 2 is not 0 or 1"),
        (GAME_1[:-1], "game 1: the game is over"),
        (GAME_1[:6], "game 1: the game has no result"),
    ],
)
def test_write_rejects_bad_records(actions: tuple[object, ...], reason: str) -> None:
    with pytest.raises(InvalidMatchFile, match=reason):
        write_mat(_example_with(1, actions))


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"players": ("Alice", "")}, "player name"),
        ({"players": ("Al : ice", "Bob")}, "player name"),
        ({"metadata": {"Variation": "NackGammon"}}, "MatRecord.variant"),
        ({"metadata": {'Bad"Key': "x"}}, "metadata"),
        ({"length": -1}, "match length"),
    ],
)
def test_write_rejects_unwritable_fields(change: dict[str, object], reason: str) -> None:
    record = dataclasses.replace(read_mat(EXAMPLE), **change)  # type: ignore[arg-type]
    with pytest.raises(InvalidMatchFile, match=reason):
        write_mat(record)


def test_score_lines_must_follow_results_in_records() -> None:
    record = read_mat(EXAMPLE)
    wrong = dataclasses.replace(record.games[1], score_before=(1, 0))
    with pytest.raises(InvalidMatchFile, match="game 2: the score before game 2 is 2-0"):
        write_mat(dataclasses.replace(record, games=(record.games[0], wrong)))
    renumbered = dataclasses.replace(record.games[1], number=3)
    with pytest.raises(InvalidMatchFile, match="expected game 2"):
        write_mat(dataclasses.replace(record, games=(record.games[0], renumbered)))


def test_empty_record() -> None:
    record = MatRecord(5, ("Alice", "Bob"))
    assert write_mat(record) == " 5 point match\n"
    assert read_mat(write_mat(record)) == MatRecord(5, ("", ""))
    assert MatGame(1, (0, 0)).winner is None
