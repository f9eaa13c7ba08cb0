"""``bidak coins``: an operator looks at a player's coins and grants some, audited in the ledger."""

from __future__ import annotations

import asyncio
from pathlib import Path

from typer.testing import CliRunner

from bidak.cli.app import app
from bidak.server.play.storage import Store
from bidak.server.shared.store.db import Database


def a_guest(url: str) -> str:
    async def make() -> str:
        db = Database(url)
        await db.migrate()
        store = Store(db)
        player, _ = await store.create_guest("Swift Otter 42")
        await store.close()
        await db.close()
        return player.id

    return asyncio.run(make())


def test_grant_then_show(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    player = a_guest(url)
    runner = CliRunner()
    granted = runner.invoke(
        app, ["coins", "grant", player, "120", "--reason", "ticket 7", "--database-url", url]
    )
    assert granted.exit_code == 0, granted.output
    assert "granted +120" in granted.output and "balance 120" in granted.output
    back = runner.invoke(
        app, ["coins", "grant", player, "-20", "--reason", "double grant", "--database-url", url]
    )
    assert back.exit_code == 0 and "balance 100" in back.output

    shown = runner.invoke(app, ["coins", "show", player, "--database-url", url])
    assert shown.exit_code == 0, shown.output
    assert "balance  100 (ledger sum 100)" in shown.output
    assert "ticket 7" in shown.output and "double grant" in shown.output


def test_refusals_are_one_clear_line_and_exit_2(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    player = a_guest(url)
    runner = CliRunner()
    nobody = runner.invoke(app, ["coins", "show", "nobody", "--database-url", url])
    assert nobody.exit_code == 2 and "there is no player 'nobody'" in nobody.output
    too_much = runner.invoke(
        app, ["coins", "grant", player, "-5", "--reason", "oops", "--database-url", url]
    )
    assert too_much.exit_code == 2 and "costs 5 coins and you have 0" in too_much.output
    no_reason = runner.invoke(
        app, ["coins", "grant", player, "5", "--reason", " ", "--database-url", url]
    )
    assert no_reason.exit_code == 2 and "Say why" in no_reason.output
    missing = runner.invoke(app, ["coins", "grant", player, "5", "--database-url", url])
    assert missing.exit_code == 2  # --reason is required
