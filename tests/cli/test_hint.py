"""`bidak hint` as a user types it (1-ply to stay fast)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from bidak.cli import app

runner = CliRunner()
RACE = "XGID=---BCCD-B-A--a-a-b-dcca---:0:0:1:00:2:1:0:7:10"


def test_hint_ranks_the_plays_of_a_roll() -> None:
    result = runner.invoke(app, ["hint", "4HPwATDgc/ABMA", "31", "--level", "1ply"])
    assert result.exit_code == 0, result.output
    assert "16 legal play(s) for 3-1 at 1ply" in result.output
    first = next(line for line in result.output.splitlines() if "│ 1 " in line)
    assert "8/5 6/5" in first


def test_hint_takes_the_dice_and_the_score_from_a_match_id() -> None:
    result = runner.invoke(app, ["hint", "4HPwATDgc/ABMA:cInqAAAAAAAE", "-l", "1ply"])
    assert result.exit_code == 0, result.output
    assert "for 5-2" in result.output and "7-away, 7-away" in result.output


def test_hint_json_lists_every_candidate_best_first() -> None:
    result = runner.invoke(app, ["hint", "4HPwATDgc/ABMA", "65", "-l", "1ply", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    equities = [c["equity"] for c in data["candidates"]]
    assert equities == sorted(equities, reverse=True)
    assert data["candidates"][0]["notation"] == "24/13"
    assert data["candidates"][0]["loss"] == 0.0


def test_without_dice_the_hint_is_the_cube_verdict() -> None:
    result = runner.invoke(app, ["hint", RACE, "--level", "1ply"])
    assert result.exit_code == 0, result.output
    assert "Right action: Double, take" in result.output
    data = json.loads(runner.invoke(app, ["hint", RACE, "-l", "1ply", "--json"]).stdout)
    assert data["kind"] == "cube" and data["action"] == "double_take"
    assert data["context"]["away"] == [5, 6]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["hint", "4HPwATDgc/ABMA", "31", "--level", "7ply"], "unknown engine depth"),
        (["hint", "AQAAAAAAAAAAAA", "31", "-l", "1ply"], "the game is over"),
        (["hint", "not-an-id", "31"], "error"),
        (["hint", "4HPwATDgc/ABMA", "77", "-l", "1ply"], "a roll is two dice"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output
