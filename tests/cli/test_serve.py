"""``bidak serve`` refuses settings it cannot honour, with a message and no traceback."""

from __future__ import annotations

from typer.testing import CliRunner

from bidak.cli import app


def test_several_workers_without_a_shared_bus_are_refused() -> None:
    result = CliRunner().invoke(app, ["serve", "--workers", "2"])
    assert result.exit_code == 2
    assert "--bus-url redis://" in result.output
    assert "Traceback" not in result.output


def test_a_bad_setting_is_refused() -> None:
    result = CliRunner().invoke(app, ["serve", "--port", "0"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
