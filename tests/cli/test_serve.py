"""``bidak serve`` refuses settings it cannot honour, with a message and no traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from bidak.cli import app
from bidak.server.settings import Settings


def test_several_workers_without_a_shared_bus_are_refused() -> None:
    result = CliRunner().invoke(app, ["serve", "--workers", "2"])
    assert result.exit_code == 2
    assert "--bus-url redis://" in result.output
    assert "Traceback" not in result.output


def test_a_bad_setting_is_refused() -> None:
    result = CliRunner().invoke(app, ["serve", "--port", "0"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_production_refuses_the_default_or_a_short_secret() -> None:
    for secret in (None, "too-short"):
        env = {"BIDAK_ENVIRONMENT": "production"}
        if secret is not None:
            env["BIDAK_SECRET_KEY"] = secret
        result = CliRunner().invoke(app, ["serve"], env=env)
        assert result.exit_code == 2, result.output
        assert "BIDAK_SECRET_KEY" in result.output
        assert "Traceback" not in result.output


def test_every_setting_is_documented_for_operators() -> None:
    text = (Path(__file__).parents[2] / "docs" / "operating.md").read_text()
    missing = [n for n in Settings.model_fields if f"`BIDAK_{n.upper()}`" not in text]
    assert not missing, f"docs/operating.md does not say what these do: {missing}"


def test_off_turns_an_optional_setting_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BIDAK_GC_FREEZE_SECONDS", "off")
    assert Settings().gc_freeze_seconds is None
    monkeypatch.setenv("BIDAK_GC_FREEZE_SECONDS", "2.5")
    assert Settings().gc_freeze_seconds == 2.5
