"""``bidak serve``: run the game server (SQLite and an in-process bus unless told otherwise)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

console = Console(stderr=True, highlight=False)


def serve(
    host: Annotated[str | None, typer.Option(help="address to listen on [127.0.0.1]")] = None,
    port: Annotated[int | None, typer.Option(help="port to listen on [8000]")] = None,
    database_url: Annotated[
        str | None,
        typer.Option(help="database URL, e.g. postgresql://user@host/db [a SQLite file]"),
    ] = None,
    bus_url: Annotated[
        str | None, typer.Option(help="pub/sub URL, e.g. redis://127.0.0.1:6379/0 [memory://]")
    ] = None,
) -> None:
    """Run the Bidak server; open the printed address in a browser to play."""
    import uvicorn
    from pydantic import ValidationError

    from bidak.server.app import create_app
    from bidak.server.settings import Settings

    overrides = {
        key: value
        for key, value in {
            "host": host,
            "port": port,
            "database_url": database_url,
            "bus_url": bus_url,
        }.items()
        if value is not None
    }
    try:
        settings = Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as invalid:
        for problem in invalid.errors():
            console.print(f"[bold red]error:[/] {problem['msg']}")
        raise typer.Exit(2) from None
    shown = settings.database_url.split("@")[-1]
    console.print(f"Bidak on http://{settings.host}:{settings.port}  (database: {shown})")
    uvicorn.run(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        log_level="info",
        ws_max_size=settings.max_message_bytes * 4,
    )
