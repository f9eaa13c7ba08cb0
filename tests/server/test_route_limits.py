"""Every route has its limit written down, and every change a player makes is counted (issue 37).

docs/security.md ("Every route's limit") lists each route of the OpenAPI document with its limit.
This fails when a route is missing there, when one listed no longer exists, or when a route that
changes something or an expensive read has none; and it shows the floor under every change, the
player's ``changes`` allowance, refusing one change too many on any route.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bidak.server.app import create_app
from bidak.server.shared.clocks import ManualClock
from bidak.server.shared.settings import Settings
from tests.server.harness import Client, running_server, server_settings

DOC = Path(__file__).parents[2] / "docs" / "security.md"
UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}
EXPENSIVE = {
    "GET /api/rooms/{code}/hint",
    "GET /api/matches/{match_id}/review",
    "GET /api/positions/share.svg",
    "GET /api/positions/share.png",
    "GET /api/me/export",
    "GET /api/mod/queue",
    "GET /api/mod/players/{player_id}",
}
"""Reads that cost the server engine time, drawing or a scan of many rows."""


def written_limits() -> dict[str, str]:
    text = DOC.read_text()
    table = text.split("<!-- route limits -->", 1)[1].split("<!-- end of route limits -->", 1)[0]
    rows = re.findall(r"^\| ([A-Z]+ /\S*) \| (.+?) \|$", table, flags=re.MULTILINE)
    return dict(rows)


def test_every_route_has_its_limit_written_down(tmp_path: Path) -> None:
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'x.sqlite3'}"))
    routes = {
        f"{method.upper()} {path}"
        for path, methods in app.openapi()["paths"].items()
        for method in methods
    }
    written = written_limits()
    assert sorted(routes - written.keys()) == [], "routes without a written limit"
    assert sorted(written.keys() - routes) == [], "limits of routes that are gone"
    for route, limit in written.items():
        if route.split()[0] in UNSAFE:
            assert limit.startswith("changes") or limit.startswith("expensive: changes"), route
        if route in EXPENSIVE:
            assert limit.startswith("expensive: "), route
        if route.split()[0] in UNSAFE or route in EXPENSIVE:
            assert "none" not in limit.split(";")[0], route


@pytest.mark.anyio
async def test_one_change_too_many_is_refused_on_any_route(tmp_path: Path) -> None:
    clock = ManualClock(1_800_000_000.0)
    async with running_server(server_settings(tmp_path), clock) as running, Client(running) as me:
        burst = int(running.services.limits.changes.burst)
        for i in range(burst):
            answer = await me.http.put("/api/puzzles/sharing", json={"shared": i % 2 == 0})
            assert answer.status_code == 200
        refused = await me.http.post("/api/quick", json={"length": 3})
        assert refused.status_code == 429 and refused.headers["Retry-After"]
        assert (await me.http.get("/api/me")).status_code == 200  # reads are not changes
        await clock.advance(1)
        assert (await me.http.delete("/api/quick")).status_code == 204
