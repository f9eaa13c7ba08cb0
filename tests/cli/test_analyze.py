"""`bidak analyze FILE.mat` as a user types it (1-ply to stay fast)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bidak.cli import app

runner = CliRunner()
BLUNDER = Path(__file__).parents[1] / "engine" / "data" / "blunder.mat"


def test_analyze_shows_the_blunder_and_the_totals() -> None:
    result = runner.invoke(app, ["analyze", str(BLUNDER), "--level", "1ply"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Alice vs Bob, 3-point match" in out
    assert "blunder" in out and "13/10 6/1*" in out and "8/3 6/3" in out
    assert "Totals" in out and "PR" in out and "luck" in out
    assert "4LfBAyCG54YBAw:MIFuAAAAAAAE" in out  # the position, ready for `bidak hint`


def test_analyze_json_is_the_full_review() -> None:
    result = runner.invoke(app, ["analyze", str(BLUNDER), "-l", "1ply", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["players"] == ["Alice", "Bob"] and data["level"] == "1ply"
    assert [t["blunders"] for t in data["totals"]] == [1, 0]
    assert data["thresholds"]["error"] == 0.04


@pytest.mark.parametrize(
    ("content", "args", "message"),
    [
        (None, [], "cannot read"),
        (" 3 point match\n\n Game 1\n nonsense\n", [], "error"),
        (b"\x89PNG\r\n\x1a\n\xff\xfe", [], "not a text file"),
        ("", ["--level", "zero"], "unknown engine depth"),
    ],
)
def test_bad_files_and_levels_are_one_line_and_exit_2(
    tmp_path: Path, content: str | bytes | None, args: list[str], message: str
) -> None:
    path = tmp_path / "match.mat"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    result = runner.invoke(app, ["analyze", str(path), *args])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output
