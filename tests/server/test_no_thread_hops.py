"""Every HTTP route and every dependency it uses runs on the event loop.

FastAPI runs a plain ``def`` endpoint or dependency on a thread of its pool: each request then
waits for a thread and the GIL once per such function. The services' dependencies were plain
functions, and 200 players pressing Quick match at once waited about a second on those hand-offs
alone (docs/performance.md, "Quick match"). This test fails on any such function.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

from fastapi.routing import APIRoute

from bidak.server.app import create_app
from tests.server.harness import server_settings


def _calls(dependant: Any) -> list[Any]:
    found = [dependant.call] if dependant.call is not None else []
    for sub in dependant.dependencies:
        found += _calls(sub)
    return found


def _api_routes(routes: list[Any]) -> list[APIRoute]:
    """The app's API routes, also inside included routers (FastAPI keeps those apart)."""
    found: list[APIRoute] = []
    for route in routes:
        if isinstance(route, APIRoute):
            found.append(route)
        elif hasattr(route, "original_router"):
            found += _api_routes(route.original_router.routes)
        elif hasattr(route, "routes"):
            found += _api_routes(route.routes)
    return found


def test_no_route_or_dependency_is_run_on_a_thread(tmp_path: Path) -> None:
    app = create_app(server_settings(tmp_path))
    routes = _api_routes(app.routes)
    assert len(routes) > 50, "the app's routes were found"
    plain = sorted(
        {
            f"{route.path}: {getattr(call, '__qualname__', call)}"
            for route in routes
            for call in _calls(route.dependant)
            if not inspect.iscoroutinefunction(call)
            and not inspect.iscoroutinefunction(getattr(call, "__call__", None))  # noqa: B004
        }
    )
    assert plain == []
