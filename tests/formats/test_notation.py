"""Move notation (formats.md 5): standard notation from bidak.rules and the .mat form."""

from __future__ import annotations

import random

import pytest

from bidak.errors import IllegalPlay, InvalidNotation
from bidak.formats import (
    format_mat_steps,
    format_steps,
    parse_hops,
    parse_mat_play,
    parse_mat_steps,
    resolve_mat_steps,
)
from bidak.formats.notation import Play
from bidak.rules import Position, Step, legal_plays, outcome

# (gnubg steps, board before, text, dice): every row of formats.md 5. The dice are inferred from
# the steps (the table gives none).
PRINTING = [
    ([(8, 5), (6, 5)], "4HPwATDgc/ABMA", "8/5 6/5", (3, 1)),
    ([(24, 18), (18, 13)], "4HPwATDgc/ABMA", "24/13", (6, 5)),
    ([(8, 5), (8, 5), (6, 3), (6, 3)], "4HPwATDgc/ABMA", "8/5(2) 6/3(2)", (3, 3)),
    ([(13, 9), (9, 5), (13, 9), (9, 5)], "4HPwATDgc/ABMA", "13/5(2)", (4, 4)),
    ([(24, 22), (13, 7)], "4HPkQSDgc/ABMA", "24/22 13/7*", (6, 2)),
    ([(8, 3), (3, 1)], "sNfgASTg88gBMA", "8/3*/1*", (5, 2)),
    ([(25, 21), (21, 18)], "sNfgAVDgc+QAWA", "bar/18*", (4, 3)),
    ([(25, 22), (25, 21)], "4HPkIDCwZ/AAaA", "bar/22 bar/21", (4, 3)),
    ([(22, 18), (18, 14), (8, 4), (8, 4)], "cGdwEDKwZ/ACJA", "22/14 8/4(2)", (4, 4)),
    ([(6, 0), (3, 0)], "DQAAMBEAAAAAAA", "6/off 3/off", (6, 3)),
]


def _with_hits(position: Position, pairs: list[tuple[int, int]]) -> tuple[Step, ...]:
    """The steps with their hits, found by moving the checkers on a plain board."""
    board = [position.bar.opponent, *position.points, position.bar.mover]
    steps = []
    for start, end in pairs:
        assert board[start] > 0
        board[start] -= 1
        hit = end != 0 and board[end] == -1
        if end:
            board[end] = 1 if hit else board[end] + 1
        steps.append(Step(start, end, hit))
    return tuple(steps)


@pytest.mark.parametrize(("pairs", "board", "text", "dice"), PRINTING, ids=[r[2] for r in PRINTING])
def test_printing(
    pairs: list[tuple[int, int]], board: str, text: str, dice: tuple[int, int]
) -> None:
    position = Position.from_position_id(board)
    steps = _with_hits(position, pairs)
    assert format_steps(steps) == text
    plays = [play for play in legal_plays(position, dice) if str(play) == text]
    assert len(plays) == 1
    # The .mat form of the same play reads back to it.
    mat = format_mat_steps(steps)
    assert parse_mat_play(mat, position, dice).result == plays[0].result
    assert Play.parse(text, position, dice).result == plays[0].result


def test_mat_forms_of_the_examples() -> None:
    opening_bar = Position.from_position_id("sNfgAVDgc+QAWA")
    steps = _with_hits(opening_bar, [(25, 21), (21, 18)])
    assert format_mat_steps(steps) == "25/21 21/18*"
    bear_off = Position.from_position_id("DQAAMBEAAAAAAA")
    assert format_mat_steps(_with_hits(bear_off, [(6, 0), (3, 0)])) == "6/0 3/0"
    assert format_mat_steps(()) == ""


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("bar/22 13/9", ((25, 22), (13, 9))),
        ("13/7*/5", ((13, 7), (7, 5))),
        ("24/20*(2)", ((24, 20), (24, 20))),
    ],
)
def test_parsing_examples(text: str, expected: tuple[tuple[int, int], ...]) -> None:
    """gnubg's parsemove on the three examples of formats.md 5."""
    pairs = tuple(
        (a, b) for hop in parse_hops(text) for a, b in zip(hop.stops, hop.stops[1:], strict=False)
    )
    assert pairs == expected
    assert tuple((s.start, s.end) for s in parse_mat_steps(text)) == expected


def test_parse_marks_hits_as_written() -> None:
    assert parse_mat_steps("8/3* 3/1*") == (Step(8, 3, True), Step(3, 1, True))
    assert parse_mat_steps("25/21 21/18* 6/0") == (
        Step(25, 21, False),
        Step(21, 18, True),
        Step(6, 0, False),
    )
    assert parse_mat_steps("") == ()


@pytest.mark.parametrize("text", ["8/9", "8-5", "0/3", "13/25", "8/5(5)", "x/3", "*8/5"])
def test_unreadable_steps(text: str) -> None:
    with pytest.raises(InvalidNotation):
        parse_mat_steps(text)


# -- combined steps, as gnubg's importer expands them ---------------------------------------------


def test_combined_non_double_is_expanded() -> None:
    start = Position.initial()
    play = parse_mat_play("24/13", start, (6, 5))
    assert play.steps == (Step(24, 18, False), Step(18, 13, False))
    # 61: 11/4 from a checker on 11: 11/5/4 and 11/10/4 lead to the same position.
    position = Position.from_counts({11: 1, 6: 5, 8: 2, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 2})
    assert format_mat_steps(parse_mat_play("61: 11/4"[4:], position, (6, 1)).steps) == "11/5 5/4"


def test_combined_step_takes_the_path_whose_hits_are_written() -> None:
    # An opponent blot on the mover's 10 point: 11/4 can hit it (11/10*/4) or pass it (11/5/4).
    position = Position.from_counts({11: 1, 6: 5, 13: 5, 24: 4}, {15: 1, 6: 5, 8: 3, 13: 4, 24: 2})
    assert position.count(10) == -1
    quiet = parse_mat_play("11/4", position, (6, 1))
    assert quiet.steps == (Step(11, 5, False), Step(5, 4, False))
    hitting = parse_mat_play("11/10* 10/4", position, (6, 1))
    assert hitting.steps == (Step(11, 10, True), Step(10, 4, False))
    assert hitting.result.bar.opponent == 1 and quiet.result.bar.opponent == 0
    assert parse_mat_play("11/10*/4", position, (6, 1)) == hitting


def test_combined_doubles_are_expanded() -> None:
    play = parse_mat_play("13/5 13/5", Position.initial(), (4, 4))
    assert format_mat_steps(play.steps) == "13/9 9/5 13/9 9/5"
    assert str(play) == "13/5(2)"
    assert str(parse_mat_play("24/15 24/21", Position.initial(), (3, 3))) == "24/21 24/15"


def test_bear_off_with_a_larger_die() -> None:
    position = Position.from_counts({2: 1, 3: 1}, {6: 5, 8: 3, 13: 5, 24: 2})
    play = parse_mat_play("3/0 2/0", position, (6, 4))
    assert play.steps == (Step(3, 0, False), Step(2, 0, False))
    assert outcome(play.result) is not None


def test_no_move_and_illegal_moves() -> None:
    dance = Position.from_counts({6: 14}, dict.fromkeys(range(1, 7), 2), (1, 0))
    assert resolve_mat_steps(dance, (6, 5), ()).steps == ()
    with pytest.raises(IllegalPlay, match="can be played"):
        resolve_mat_steps(Position.initial(), (6, 5), ())
    with pytest.raises(IllegalPlay, match="not a legal play"):
        parse_mat_play("8/4 6/5", Position.initial(), (3, 1))
    with pytest.raises(IllegalPlay, match="cannot be moved with 3-1"):
        parse_mat_play("8/6 6/5", Position.initial(), (3, 1))
    with pytest.raises(IllegalPlay, match="at most four"):
        parse_mat_play("8/7 8/7 8/7 6/5 6/5", Position.initial(), (1, 1))


def test_steps_in_another_order_are_accepted() -> None:
    position = Position.from_position_id("sNfgAVDgc+QAWA")
    play = parse_mat_play("21/18* 25/21", position, (4, 3))
    assert play.steps == (Step(25, 21, False), Step(21, 18, True))


def test_every_legal_play_reads_back_in_both_notations() -> None:
    """Random games: each legal play's standard and .mat text name that play again."""
    rng = random.Random(5)
    checked = 0
    for _ in range(6):
        position = Position.initial()
        while True:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            plays = legal_plays(position, dice)
            for play in rng.sample(plays, min(4, len(plays))):
                mat = parse_mat_play(format_mat_steps(play.steps), position, dice)
                assert mat.steps == play.steps and mat.result == play.result
                assert Play.parse(str(play), position, dice).result == play.result
                checked += 1
            play = rng.choice(plays)
            if outcome(play.result) is not None:
                break
            position = play.result.flipped()
    assert checked > 1000
