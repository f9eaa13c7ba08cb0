"""`bidak bench arena` on a tiny arena: it ends the matches it says and times every pairing.

No timing is asserted: the figures depend on the machine."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from bidak.bench.arena import run_arena
from bidak.cli import app

pytestmark = pytest.mark.anyio


async def test_every_player_of_an_ended_match_is_accounted_for() -> None:
    result = await run_arena(players=8, matches=6, batch=2, gap=0.05)
    assert result.ended == 6
    assert len(result.waits) + result.unpaired == 2 * result.ended
    assert len(result.waits) > 0 and all(wait >= 0 for wait in result.waits)
    assert result.ticks


def test_the_command_prints_its_table() -> None:
    args = ["bench", "arena", "--players", "6", "--matches", "3", "--batch", "1", "--gap", "0"]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert "match end to next pairing" in result.output
