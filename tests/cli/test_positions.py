"""`bidak show` and `bidak plays` as a user types them."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from bidak.cli import app

runner = CliRunner()


def test_plays_lists_every_legal_play_in_standard_notation() -> None:
    result = runner.invoke(app, ["plays", "4HPwATDgc/ABMA", "31"])
    assert result.exit_code == 0, result.output
    assert "16 legal play(s) for 3-1" in result.output
    assert "8/5 6/5" in result.output


def test_plays_takes_the_dice_from_a_match_id() -> None:
    result = runner.invoke(app, ["plays", "4HPwATDgc/ABMA:cInqAAAAAAAE"])
    assert result.exit_code == 0, result.output
    assert "for 5-2" in result.output and "13/11 13/8" in result.output


def test_a_dance_is_said_in_words() -> None:
    result = runner.invoke(app, ["plays", "XGID=--a--aE-C---eD---c-e----BA:0:0:1:41:0:0:0:5:10"])
    assert result.exit_code == 0, result.output
    assert "legal play(s) for 4-1" in result.output


def test_show_prints_board_pips_cube_and_score() -> None:
    result = runner.invoke(app, ["show", "XGID=-B-A--A----------------ba-:1:-1:1:63:4:5:0:7:10"])
    assert result.exit_code == 0, result.output
    assert "7-point match" in result.output
    assert "pips" in result.output and "cube 2" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["show", "garbage"], "Position ID"),
        (["plays", "4HPwATDgc/ABMA", "71"], "two dice from 1 to 6"),
        (["plays", "4HPwATDgc/ABMA"], "give the roll"),
        (["show", "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0"], "XGID"),
        (["show", "////////////AA"], ""),
    ],
)
def test_bad_input_gets_a_message_and_a_non_zero_exit(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert "error:" in result.output and message in result.output
    assert "Traceback" not in result.output


def test_bench_rules_prints_both_implementations() -> None:
    result = runner.invoke(app, ["bench", "rules", "--count", "200", "--repeat", "1"])
    assert result.exit_code == 0, result.output
    assert "bidak.rules.legal_plays" in result.output and "bgsage.possible_moves" in result.output
