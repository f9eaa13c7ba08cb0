"""No input reaches a 500 (issue 37): every route of the OpenAPI document is asked with odd path
and query values (huge, negative, float-looking, unicode, NUL, empty), on SQLite and PostgreSQL,
and no answer is a 5xx and nothing is logged at ERROR or with a traceback.

A real server runs in a thread of the test's process (``tests/web/server.py``), so its log
records reach the handler the test installs. The requests come from one client with the site's
``Origin`` (a change from another page is refused before any route, which would hide the routes).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.server.backends import database_url, postgres_url
from tests.web.server import ServerThread

__all__ = ["database_url", "postgres_url"]

ODD: list[str] = [
    "9223372036854775808",
    "1" + "0" * 30,
    "-1",
    "0",
    "1.5e308",
    "NaN",
    "ä€𝄞",
    "\x00",
    "a\x00b",
    " ",
    "%",
    "../../etc/passwd",
    "x" * 300,
]
VALUES = st.one_of(
    st.sampled_from(ODD),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.text(max_size=40),
)


class Errors(logging.Handler):
    """Every record at ERROR or above, or carrying a traceback."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.ERROR or record.exc_info:
            self.seen.append(f"{record.name}: {record.getMessage()}")


@pytest.fixture
def site(database_url: str, tmp_path: Path) -> Iterator[tuple[ServerThread, Errors]]:
    errors = Errors()
    root = logging.getLogger()
    root.addHandler(errors)
    running = ServerThread(tmp_path, database_url=database_url).start()
    try:
        yield running, errors
    finally:
        running.stop()
        root.removeHandler(errors)


def routes(running: ServerThread) -> list[tuple[str, str, list[str], list[str]]]:
    """(method, path, its path parameters, its query parameters) of every route of the
    OpenAPI document."""
    found = []
    for path, methods in running.app.openapi()["paths"].items():
        params = re.findall(r"{(\w+)}", path)
        for method, operation in sorted(methods.items()):
            query = [p["name"] for p in operation.get("parameters", []) if p["in"] == "query"]
            found.append((method.upper(), path, params, query))
    return found


def test_no_value_in_a_path_or_query_reaches_a_500(site: tuple[ServerThread, Errors]) -> None:
    running, errors = site
    every = routes(running)
    assert len(every) > 40  # the walk reaches the whole API
    with httpx.Client(
        base_url=running.base, headers={"Origin": running.base}, timeout=30
    ) as client:
        client.get("/api/me").raise_for_status()

        @settings(
            max_examples=12,
            deadline=None,
            derandomize=True,
            suppress_health_check=[HealthCheck.function_scoped_fixture],
        )
        @given(st.data())
        def ask(data: Any) -> None:
            for method, path, params, query in every:
                url = path
                for name in params:
                    url = url.replace("{" + name + "}", quote(data.draw(VALUES), safe=""))
                values = {name: data.draw(VALUES) for name in query}
                body = {} if method in ("POST", "PUT", "PATCH") else None
                answer = client.request(method, url, params=values, json=body)
                assert answer.status_code < 500, (method, url, values, answer.text[:200])

        ask()
    assert errors.seen == []
