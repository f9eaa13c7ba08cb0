"""Two processes play on through Redis outages, killed database connections and a killed
process (issue 29), smoke-sized: a few matches and seconds of outage
(:mod:`tests.server.faults`; the full-size run is ``scripts/faults.py``). Needs PostgreSQL and
``redis-server`` (skips without them, fails under ``CI=true``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.server import backends
from tests.server.faults import Plan, run

pytestmark = pytest.mark.anyio
postgres_url = backends.postgres_url


async def test_matches_on_two_processes_play_on_through_faults(
    tmp_path: Path, postgres_url: str
) -> None:
    if shutil.which("redis-server") is None:
        backends.unavailable("redis-server", "not installed")
    report = await run(Plan(), tmp_path, postgres_url)
    print(report.figures)
    assert report.problems == [], report.figures
