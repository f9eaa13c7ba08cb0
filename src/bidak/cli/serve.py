"""``bidak serve``: run the game server (SQLite and an in-process bus unless told otherwise)."""

from __future__ import annotations

import asyncio
import os
from typing import Annotated, Any

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
    workers: Annotated[
        int,
        typer.Option(
            min=1,
            help="server processes sharing the port (more than one needs --bus-url redis://)",
        ),
    ] = 1,
) -> None:
    """Run the Bidak server; open the printed address in a browser to play."""
    import uvicorn
    from pydantic import ValidationError

    from bidak.server.app import create_app
    from bidak.server.shared.http_limits import http_options
    from bidak.server.shared.openfiles import LOW, raise_open_files
    from bidak.server.shared.preflight import problems
    from bidak.server.shared.settings import Settings

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
        for details in invalid.errors():
            message = details["msg"].removeprefix("Value error, ")
            if details["loc"]:  # named as the operator set it: the option, or the variable
                field = str(details["loc"][0])
                named = (
                    f"--{field.replace('_', '-')}"
                    if field in overrides
                    else f"BIDAK_{field.upper()}"
                )
                message = f"{named}: {message}"
            console.print(f"[bold red]error:[/] {message}")
        raise typer.Exit(2) from None
    if workers > 1 and settings.bus_url.startswith("memory://"):
        console.print(
            "[bold red]error:[/] several workers must share a bus: add --bus-url redis://..."
            " (the in-process bus reaches only its own process)"
        )
        raise typer.Exit(2)
    files = raise_open_files()
    if files is not None and files < LOW:
        console.print(
            f"[bold yellow]warning:[/] this process may open {files} files, so it holds about"
            f" {files - 64} connections at most (two a match): raise the hard limit"
            " (ulimit -Hn, LimitNOFILE= in a systemd unit) to serve more"
        )
    # An unreachable database or bus stops here, with the address and the reason.
    found = asyncio.run(problems(settings))
    for problem in found:
        console.print(f"[bold red]error:[/] {problem}")
    if found:
        raise typer.Exit(2)
    shown = settings.database_url.split("@")[-1]
    console.print(
        f"Bidak on http://{settings.host}:{settings.port}  (database: {shown}"
        + (f", {workers} workers)" if workers > 1 else ")")
    )
    options: dict[str, Any] = {
        "host": settings.host,
        "port": settings.port,
        "log_level": "info",
        "ws_max_size": settings.max_message_bytes * 4,
        "ws_per_message_deflate": settings.ws_deflate,
        **http_options(settings),
    }
    if workers == 1:
        uvicorn.run(create_app(settings), **options)
        return
    # Each worker process builds its own app from the environment: hand the options over.
    for key, value in overrides.items():
        os.environ[f"BIDAK_{key.upper()}"] = str(value)
    uvicorn.run(
        "bidak.server.app:create_app",
        factory=True,
        workers=workers,
        **options,
    )
