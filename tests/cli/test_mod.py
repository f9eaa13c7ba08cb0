"""``bidak mod``: the operator grants and revokes the moderator role, audited and logged."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bidak.cli.app import app
from bidak.server.fairplay import FairPlay
from bidak.server.shared.clocks import SystemClock
from bidak.server.shared.store.db import Database
from tests.cli.test_coins import a_guest


def standing(url: str, player_id: str) -> tuple[bool, list[str]]:
    async def read() -> tuple[bool, list[str]]:
        db = Database(url)
        fairplay = FairPlay(db, SystemClock())
        try:
            player = await fairplay.standing(player_id)
            return player.moderator, [a.kind for a in await fairplay.actions_on(player_id)]
        finally:
            await db.close()

    return asyncio.run(read())


def test_grant_and_revoke_are_audited_and_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    url = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    player = a_guest(url)
    runner = CliRunner()
    with caplog.at_level(logging.INFO):
        granted = runner.invoke(
            app, ["mod", "grant", player, "--reason", "ticket 9", "--database-url", url]
        )
    assert granted.exit_code == 0, granted.output
    assert "granted the moderator role" in granted.output
    # The operator reads one line about the grant, not the database's migrations.
    assert not [r for r in caplog.records if r.name.startswith("alembic")]
    assert any(player in r.getMessage() and "grant" in r.getMessage() for r in caplog.records)
    assert standing(url, player) == (True, ["grant"])
    twice = runner.invoke(app, ["mod", "grant", player, "--database-url", url])
    assert twice.exit_code == 2 and "already a moderator" in twice.output
    revoked = runner.invoke(app, ["mod", "revoke", player, "--database-url", url])
    assert revoked.exit_code == 0
    assert standing(url, player) == (False, ["revoke", "grant"])
    nobody = runner.invoke(app, ["mod", "grant", "nobody", "--database-url", url])
    assert nobody.exit_code == 2 and "no such player" in nobody.output


def test_the_operator_acts_on_a_moderator_whom_moderators_may_not(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    player = a_guest(url)
    runner = CliRunner()
    assert runner.invoke(app, ["mod", "grant", player, "--database-url", url]).exit_code == 0
    banned = runner.invoke(
        app, ["mod", "act", player, "ban_play", "--reason", "abuse", "--database-url", url]
    )
    assert banned.exit_code == 0, banned.output
    assert "ban_play on" in banned.output
    assert standing(url, player) == (True, ["ban_play", "grant"])
    again = runner.invoke(
        app, ["mod", "act", player, "ban_play", "--reason", "x", "--database-url", url]
    )
    assert again.exit_code == 2 and "already banned" in again.output
    unknown = runner.invoke(
        app, ["mod", "act", player, "explode", "--reason", "x", "--database-url", url]
    )
    assert unknown.exit_code == 2
