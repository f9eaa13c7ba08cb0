"""A server prepares every route when it starts (``warm``): the first request to a route
does not make the event loop build that router's routes while matches are being played."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import fastapi.routing
import pytest

from tests.server.harness import Client, running_server, server_settings

pytestmark = pytest.mark.anyio


async def test_no_route_is_prepared_on_a_request_after_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    prepare = fastapi.routing._populate_api_route_state
    prepared: list[str] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        prepared.append(getattr(kwargs.get("route", args[0] if args else None), "path", "?"))
        return prepare(*args, **kwargs)

    monkeypatch.setattr(fastapi.routing, "_populate_api_route_state", counted)
    settings = server_settings(tmp_path, metrics="local")
    async with running_server(settings) as running:
        started = len(prepared)
        assert started > 0  # what the start prepared (so the spy sees FastAPI's preparing)
        async with Client(running) as guest:
            for path in ("/metrics", "/api/health", "/api/me", "/api/friends"):
                await guest.http.get(path)
        assert prepared[started:] == []
