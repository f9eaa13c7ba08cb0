"""No client input makes a 500 or puts a traceback in the log (issue 23, change 6).

A probe got 500s with tracebacks for JSON with ``NaN``, ``Infinity``, ``1e999`` or a lone
surrogate (``{"seat":NaN}`` to ``/api/rooms/x/mute``, ``{"name":"ab\\ud800cd"}`` to
``PATCH /api/me``): the validation answer echoed the input and could not encode it. Every route
the app has (read from its OpenAPI description, so a route added later is covered) is fed those
values in its body's fields, its query and its path; each answer is a 4xx with a JSON reason,
and nothing is logged at error level.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from bidak.server.app import create_app
from tests.server.harness import Client, running_server, server_settings

pytestmark = pytest.mark.anyio

ODD_VALUES = ["NaN", "-Infinity", "Infinity", "1e999", '"ab\\ud800cd"', '"\\udfff"', "-1e999"]
"""JSON texts Python's json module reads (NaN, infinities) or that hold a lone surrogate."""
ODD_TEXT = ["%ED%A0%80", "NaN", "1e999", "%00", "%FF%FE", "-1", "9" * 40]
"""Odd path and query values: a UTF-8-encoded surrogate, invalid UTF-8, NUL, huge numbers."""


def routes() -> list[tuple[str, str, list[str], list[str]]]:
    """Every (method, path, body fields, query parameters) of the app."""
    spec = create_app(server_settings(Path("/nonexistent"))).openapi()
    schemas = spec["components"]["schemas"]
    found = []
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            fields: list[str] = []
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if body is not None:
                schema = body["schema"]
                for choice in [schema, *schema.get("anyOf", [])]:
                    ref = choice.get("$ref")
                    if ref:
                        fields += list(schemas[ref.rsplit("/", 1)[1]].get("properties", {}))
            query = [p["name"] for p in operation.get("parameters", []) if p["in"] == "query"]
            found.append((method.upper(), path, fields or ["x"], query))
    assert len(found) > 20 and any(p == "/api/rooms/{code}/mute" for _, p, _, _ in found)
    return found


def bodies(fields: list[str]) -> Iterator[bytes]:
    yield b"NaN"
    yield b"[1e999]"
    yield b'{"\\ud800": 1}'
    for odd in ODD_VALUES:
        yield ("{" + ", ".join(f'"{field}": {odd}' for field in fields) + "}").encode()
        for field in fields:
            yield f'{{"{field}": {odd}}}'.encode()
            yield f'{{"{field}": [{odd}], "extra": {{"{field}": {odd}}}}}'.encode()


class Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


async def test_odd_json_paths_and_queries_never_make_a_500_or_a_traceback(
    tmp_path: Path,
) -> None:
    errors = Errors()
    loggers = [logging.getLogger(name) for name in ("", "uvicorn", "uvicorn.error", "bidak")]
    for logger in loggers:
        logger.addHandler(errors)
    failures: list[tuple[str, str, Any, int, str]] = []
    try:
        async with running_server(server_settings(tmp_path)) as running, Client(running) as me:
            http = me.http
            room = (await http.post("/api/rooms", json={"kind": "friend", "length": 1})).json()
            for method, path, fields, query in routes():
                filled = re.sub(r"\{(\w+)\}", room["code"], path)
                asked: list[tuple[str, bytes | None, dict[str, str]]] = []
                if method in ("POST", "PUT", "PATCH", "DELETE"):
                    asked += [(filled, body, {}) for body in bodies(fields)]
                for odd in ODD_TEXT:
                    asked.append((re.sub(r"\{(\w+)\}", odd, path), None, {}))
                    for name in query:
                        asked.append((filled + f"?{name}={odd}", None, {}))
                for url, body, _ in asked:
                    headers = {"Content-Type": "application/json"} if body is not None else {}
                    answer = await http.request(method, url, content=body, headers=headers)
                    if answer.status_code >= 500 or (
                        answer.status_code >= 400
                        and answer.headers.get("content-type", "").startswith("application/json")
                        and "detail" not in answer.json()
                    ):
                        failures.append((method, url, body, answer.status_code, answer.text[:200]))
    finally:
        for logger in loggers:
            logger.removeHandler(errors)
    assert failures == [], failures[:10]
    assert [r.getMessage() for r in errors.records] == []


async def test_the_reported_requests_get_a_clear_422(tmp_path: Path) -> None:
    async with running_server(server_settings(tmp_path)) as running, Client(running) as me:
        headers = {"Content-Type": "application/json"}
        for url, method, body in [
            ("/api/rooms/x/mute", "POST", b'{"seat":NaN}'),
            ("/api/me", "PATCH", b'{"name":"ab\\ud800cd"}'),
            ("/api/me", "PATCH", b'{"name":1e999}'),
        ]:
            answer = await me.http.request(method, url, content=body, headers=headers)
            assert answer.status_code in (400, 404, 422), (url, answer.text)
            detail = answer.json()["detail"]
            assert detail, answer.text


def test_the_odd_values_are_what_the_probe_sent() -> None:
    import json

    assert all(json.loads(f"[{odd}]") for odd in ODD_VALUES)
    assert httpx.URL("/x?a=%ED%A0%80").query == b"a=%ED%A0%80"


async def test_odd_websocket_messages_get_a_bad_message_error(tmp_path: Path) -> None:
    async with running_server(server_settings(tmp_path)) as running, Client(running) as me:
        await me.connect()
        for text in [
            '{"type": "join", "room": NaN}',
            '{"type": "join", "room": "ab\\ud800cd"}',
            '{"type": "ping", "\\ud800": 1e999}',
            '{"type": "intent", "action": {"type": "play", "steps": [[Infinity, -1e999]]}}',
            '{"\\udfff": "join"}',
        ]:
            await me.ws.send(text)
            answer = await me.receive()
            assert answer["type"] == "error" and answer["code"] in ("bad_message", "not_joined")
        await me.send({"type": "ping"})
        assert (await me.receive())["type"] == "pong"


async def test_an_invalid_utf8_frame_is_one_line_without_a_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A text frame that is not UTF-8 closes the connection (1007, the client's error): the log
    says so in one line at WARNING, with no traceback (uvicorn logged one at ERROR)."""
    import asyncio
    import base64
    import os
    from urllib.parse import urlsplit

    uvicorn_log = logging.getLogger("uvicorn.error")
    async with running_server(server_settings(tmp_path)) as running:
        # uvicorn's log does not reach the root logger, and its start set its handlers anew.
        uvicorn_log.addHandler(caplog.handler)
        address = urlsplit(running.base)
        reader, writer = await asyncio.open_connection(address.hostname, address.port)
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(
            (
                f"GET /ws HTTP/1.1\r\nHost: {address.netloc}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                f"Sec-WebSocket-Version: 13\r\nOrigin: {running.base}\r\n\r\n"
            ).encode()
        )
        assert (await reader.readuntil(b"\r\n\r\n")).startswith(b"HTTP/1.1 101")
        payload, mask = b"\xff\xfe\xfd", os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        with caplog.at_level(logging.INFO):
            writer.write(bytes([0x81, 0x80 | len(payload)]) + mask + masked)
            closing = await asyncio.wait_for(reader.read(4), 20)
            writer.close()
        assert closing[:1] == b"\x88" and closing[2:4] == (1007).to_bytes(2, "big")
    uvicorn_log.removeHandler(caplog.handler)
    said = [r for r in caplog.records if "UTF-8" in r.getMessage()]
    assert len(said) == 1 and said[0].levelno == logging.WARNING and not said[0].exc_info
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
