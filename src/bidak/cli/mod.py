"""``bidak mod``: grant or revoke the moderator role, and act on any player (a moderator too),
for the site's operator.

Both read the same settings as ``bidak serve`` (``BIDAK_DATABASE_URL`` and ``--database-url``).
Each change is an audit entry on the player's account (they see it on their account page) and a
line in the log.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Annotated

import typer
from rich.console import Console

from bidak.cli.coins import DatabaseOption, _settings

app = typer.Typer(
    help="Moderators: grant or revoke the role, act on a player (each audited and logged)."
)
console = Console(highlight=False, soft_wrap=True)
errors = Console(stderr=True, highlight=False, soft_wrap=True)

PlayerArgument = Annotated[str, typer.Argument(help="the account id, as GET /api/me shows it")]
ReasonOption = Annotated[str, typer.Option(help="why; kept in the audit entry")]


async def _set(url: str, player_id: str, moderator: bool, reason: str) -> int:
    from bidak.server.fairplay import FairPlay, FairPlayError
    from bidak.server.shared.clocks import SystemClock
    from bidak.server.shared.store.db import Database

    db = Database(url)
    try:
        await db.migrate()
        try:
            action = await FairPlay(db, SystemClock()).set_moderator(player_id, moderator, reason)
        except FairPlayError as refused:
            errors.print(f"bidak mod: {player_id}: {refused.message}")
            return 2
        console.print(
            f"{'granted' if moderator else 'revoked'} the moderator role"
            f" {'to' if moderator else 'of'} {player_id} (audit entry {action.id})"
        )
        return 0
    finally:
        await db.close()


def _logging() -> None:
    """The decision's own log line; the database's migrations say nothing unless they fail
    (they printed ten lines before every grant)."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)


def _run(player: str, moderator: bool, reason: str, database_url: str | None) -> None:
    _logging()
    settings = _settings(database_url)
    raise typer.Exit(asyncio.run(_set(settings.database_url, player, moderator, reason)))


@app.command("grant")
def grant(
    player: PlayerArgument,
    reason: ReasonOption = "granted by the operator",
    database_url: DatabaseOption = None,
) -> None:
    """Make a player a moderator."""
    _run(player, True, reason, database_url)


@app.command("revoke")
def revoke(
    player: PlayerArgument,
    reason: ReasonOption = "revoked by the operator",
    database_url: DatabaseOption = None,
) -> None:
    """Take the moderator role back."""
    _run(player, False, reason, database_url)


async def _act(url: str, player_id: str, kind: str, reason: str) -> int:
    from bidak.server.fairplay import FairPlay, FairPlayError
    from bidak.server.shared.clocks import SystemClock
    from bidak.server.shared.store.db import Database

    db = Database(url)
    try:
        await db.migrate()
        try:
            action = await FairPlay(db, SystemClock()).act(None, player_id, kind, reason)
        except FairPlayError as refused:
            errors.print(f"bidak mod: {player_id}: {refused.message}")
            return 2
        console.print(f"{kind} on {player_id} by the operator (audit entry {action.id})")
        return 0
    finally:
        await db.close()


@app.command("act")
def act(
    player: PlayerArgument,
    kind: Annotated[
        str,
        typer.Argument(
            help="warn, dismiss, mute, unmute, ban (rated play), unban, ban_play, unban_play"
        ),
    ],
    reason: Annotated[str, typer.Option(help="why; the player sees it")],
    database_url: DatabaseOption = None,
) -> None:
    """Act on a player as the operator: the only way to act on a moderator (moderators may
    not act on each other)."""
    _logging()
    settings = _settings(database_url)
    raise typer.Exit(asyncio.run(_act(settings.database_url, player, kind, reason)))
