"""``bidak serve`` refuses settings it cannot honour, with a message and no traceback."""

from __future__ import annotations

import os
import resource
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bidak.cli import app
from bidak.server.shared.openfiles import LOW
from bidak.server.shared.settings import Settings


def test_several_workers_without_a_shared_bus_are_refused() -> None:
    result = CliRunner().invoke(app, ["serve", "--workers", "2"])
    assert result.exit_code == 2
    assert "--bus-url redis://" in result.output
    assert "Traceback" not in result.output


def test_a_bad_setting_is_refused() -> None:
    result = CliRunner().invoke(app, ["serve", "--port", "0"])
    assert result.exit_code == 2
    assert "--port:" in result.output
    assert "Traceback" not in result.output


def test_a_bad_variable_is_refused_by_its_name() -> None:
    result = CliRunner().invoke(app, ["serve"], env={"BIDAK_SQLITE_SYNC": "sometimes"})
    assert result.exit_code == 2
    assert "BIDAK_SQLITE_SYNC: Input should be 'full', 'moves' or 'normal'" in result.output
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


def refused_port() -> int:
    """A loopback port nothing listens on (it was free a moment ago)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.mark.parametrize(
    ("option", "url", "says"),
    [
        ("--database-url", "nonsense", "BIDAK_DATABASE_URL 'nonsense' is not a database"),
        ("--database-url", "mysql://root@127.0.0.1/test", "sqlite:///"),
        ("--bus-url", "kafka://127.0.0.1", "BIDAK_BUS_URL 'kafka://127.0.0.1' is not a bus"),
    ],
)
def test_a_url_bidak_cannot_use_is_refused_by_name(option: str, url: str, says: str) -> None:
    result = CliRunner().invoke(app, ["serve", option, url])
    assert result.exit_code == 2, result.output
    assert says in " ".join(result.output.split())
    assert "Traceback" not in result.output


def test_an_unreachable_database_or_bus_stops_the_server_with_the_reason(tmp_path: Path) -> None:
    port = refused_port()
    cases = [
        (
            ["--database-url", f"postgresql://bidak:s3cret@127.0.0.1:{port}/bidak"],
            f"cannot open the database postgresql://bidak:***@127.0.0.1:{port}/bidak",
        ),
        (
            ["--database-url", f"sqlite:///{tmp_path / 'missing' / 'folder' / 'x.sqlite3'}"],
            "cannot open the database",
        ),
        (
            [
                "--database-url",
                f"sqlite:///{tmp_path / 'ok.sqlite3'}",
                "--bus-url",
                f"redis://127.0.0.1:{port}/0",
            ],
            f"cannot reach the bus redis://127.0.0.1:{port}/0",
        ),
    ]
    for options, says in cases:
        result = CliRunner().invoke(app, ["serve", *options])
        assert result.exit_code == 2, result.output
        text = " ".join(result.output.split())
        assert says in text, text
        assert "s3cret" not in text, "the password stays out of the message"
        assert "Traceback" not in result.output


def _serve_with_open_files(soft: int, hard: int, *args: str) -> subprocess.CompletedProcess[str]:
    """``bidak serve`` in a process started with these open-files limits."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))

    return subprocess.run(
        [sys.executable, "-c", "from bidak.cli import main; main()", "serve", *args],
        preexec_fn=limit,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "COLUMNS": "200"},
    )


def test_serve_lifts_its_open_files_limit_and_warns_when_it_cannot(tmp_path: Path) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 2 * LOW:
        pytest.skip(f"this machine's hard open-files limit ({hard}) is too low to test with")
    # A bus that does not answer ends the run right after the open-files check.
    stop_early = ["--database-url", f"sqlite:///{tmp_path / 'x.sqlite3'}"]
    stop_early += ["--bus-url", f"redis://127.0.0.1:{refused_port()}/0"]
    lifted = _serve_with_open_files(1024, 2 * LOW, *stop_early)
    assert lifted.returncode == 2, lifted.stderr
    assert "cannot reach the bus" in lifted.stderr
    assert "warning" not in lifted.stderr, "1,024 was lifted to the hard limit"

    capped = _serve_with_open_files(512, 512, *stop_early)
    assert capped.returncode == 2, capped.stderr
    assert "may open 512 files" in capped.stderr and "ulimit -Hn" in capped.stderr


def test_the_limit_is_lifted_to_the_hard_limit() -> None:
    script = (
        "import resource\n"
        "from bidak.server.shared.openfiles import raise_open_files\n"
        "print(raise_open_files(), resource.getrlimit(resource.RLIMIT_NOFILE)[1])\n"
    )
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard, 4096) if hard != resource.RLIM_INFINITY else 4096
    answer = subprocess.run(
        [sys.executable, "-c", script],
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (256, wanted)),
        capture_output=True,
        text=True,
        check=True,
    )
    now, ceiling = answer.stdout.split()
    assert int(now) == int(ceiling) == wanted
