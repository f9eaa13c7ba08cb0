"""``bidak coins``: look at a player's coins and grant (or take back) some, for support cases.

Both read the same settings as ``bidak serve`` (``BIDAK_DATABASE_URL`` and ``--database-url``)
and change nothing outside the ledger: a grant is an entry with its reason written down.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

if TYPE_CHECKING:
    from bidak.server.shared.settings import Settings
    from bidak.server.wallet.service import Wallets

app = typer.Typer(help="A player's coins: show them, grant some (audited in the ledger).")
console = Console(highlight=False)
errors = Console(stderr=True, highlight=False)

DatabaseOption = Annotated[
    str | None, typer.Option(help="database URL [BIDAK_DATABASE_URL, else the SQLite file]")
]


def _settings(database_url: str | None) -> Settings:
    from pydantic import ValidationError

    from bidak.server.shared.settings import Settings

    try:
        return Settings(database_url=database_url) if database_url else Settings()
    except ValidationError as invalid:
        errors.print(f"bidak coins: {invalid.errors()[0]['msg']}")
        raise typer.Exit(2) from None


@asynccontextmanager
async def _wallets(url: str, zone: str) -> AsyncIterator[Wallets]:
    """The site's wallets on its database (brought up to date, as ``bidak serve`` does)."""
    from bidak.server.shared.clocks import SystemClock
    from bidak.server.shared.store.db import Database
    from bidak.server.wallet.service import Wallets

    db = Database(url)
    try:
        await db.migrate()
        yield Wallets(db, SystemClock(), zone)
    finally:
        await db.close()


def _no_player(player_id: str) -> int:
    errors.print(f"bidak coins: there is no player {player_id!r} (see GET /api/me)")
    return 2


async def _show(url: str, player_id: str, zone: str) -> int:
    from bidak.server.wallet.queries import NoSuchPlayer

    async with _wallets(url, zone) as wallets:
        try:
            purse = await wallets.purse(player_id)
        except NoSuchPlayer:
            return _no_player(player_id)
        streak, done, upcoming = wallets.streak(purse)
        total = await wallets.ledger_sum(player_id)
        owned = sorted(await wallets.owned(player_id))
        console.print(f"player   {player_id}")
        console.print(f"balance  {purse.balance} (ledger sum {total})")
        console.print(
            f"streak   {streak} day(s); today's check-in {'done' if done else 'not done'};"
            f" next reward {upcoming}"
        )
        console.print(f"owned    {', '.join(owned)}")
        table = Table("when (UTC)", "amount", "reason", "item / note", "balance after")
        for entry in await wallets.entries(player_id, limit=20):
            table.add_row(
                entry.at.strftime("%Y-%m-%d %H:%M"),
                f"{entry.amount:+d}",
                entry.reason,
                entry.item or entry.note or "",
                str(entry.balance_after),
            )
        console.print(table)
        return 0 if total == purse.balance else 1


async def _grant(url: str, player_id: str, amount: int, reason: str, zone: str) -> int:
    from bidak.economy import Insufficient
    from bidak.server.wallet.queries import NoSuchPlayer
    from bidak.server.wallet.service import WalletError

    async with _wallets(url, zone) as wallets:
        try:
            entry = await wallets.grant(player_id, amount, reason)
        except NoSuchPlayer:
            return _no_player(player_id)
        except (WalletError, Insufficient) as refused:
            errors.print(f"bidak coins: {refused}")
            return 2
        console.print(
            f"granted {entry.amount:+d} to {player_id} ({entry.note}); balance"
            f" {entry.balance_after}"
        )
        return 0


@app.command("show")
def show(
    player: Annotated[str, typer.Argument(help="the account id, as GET /api/me shows it")],
    database_url: DatabaseOption = None,
) -> None:
    """A player's balance (checked against the ledger), streak, cosmetics and last entries."""
    settings = _settings(database_url)
    code = asyncio.run(_show(settings.database_url, player, settings.checkin_tz))
    raise typer.Exit(code)


@app.command("grant", context_settings={"ignore_unknown_options": True})
def grant(
    player: Annotated[str, typer.Argument(help="the account id, as GET /api/me shows it")],
    amount: Annotated[int, typer.Argument(help="coins to add (negative: to take back)")],
    reason: Annotated[str, typer.Option(help="why; kept in the ledger entry")],
    database_url: DatabaseOption = None,
) -> None:
    """Add coins to a player's balance (or take some back) as an audited ledger entry."""
    settings = _settings(database_url)
    code = asyncio.run(_grant(settings.database_url, player, amount, reason, settings.checkin_tz))
    raise typer.Exit(code)
