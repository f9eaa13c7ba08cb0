"""A request's body and head are bounded in size and time (issue 23, change 3).

A probe sent ``PATCH /api/me`` with a 50 MB body, read whole before a 422 (four at once added
640 MB to the process), unbounded headers, and requests that trickled in and were held open
for ever. Over a raw connection to a real server: a body announced too large is answered 413
before it is sent, a chunked one as soon as it passes the limit; too many or too large headers
431; a head or a body that does not arrive in time 408, and the connection is closed.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.server.harness import Running, running_server, server_settings

pytestmark = pytest.mark.anyio

QUICK = 0.3
"""The servers' head and body timeouts here, in seconds."""
ANSWER = 10.0
"""Seconds the server has to answer or close; far more than it needs."""


@pytest.fixture
async def running(tmp_path: Path) -> AsyncIterator[Running]:
    settings = server_settings(tmp_path, header_timeout=QUICK, body_timeout=QUICK)
    async with running_server(settings) as running:
        yield running


async def exchange(running: Running, *parts: bytes) -> bytes:
    """Send ``parts`` on a new connection, then read what comes back until the server closes
    it. Nothing more is sent: a server that waits for the rest never answers (a timeout)."""
    host, port = running.base.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    try:
        for part in parts:
            writer.write(part)
        await writer.drain()
        return await asyncio.wait_for(reader.read(), ANSWER)
    finally:
        writer.close()


def head(running: Running, method: str, path: str, *lines: str) -> bytes:
    host = running.base.removeprefix("http://")
    text = f"{method} {path} HTTP/1.1\r\nHost: {host}\r\nOrigin: {running.base}\r\n"
    return (text + "".join(f"{line}\r\n" for line in lines) + "\r\n").encode()


def status(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1])


async def test_a_body_announced_too_large_is_refused_before_it_is_sent(running: Running) -> None:
    fifty_mb = head(
        running,
        "PATCH",
        "/api/me",
        "Content-Type: application/json",
        f"Content-Length: {50 * 1024 * 1024}",
    )
    answer = await exchange(running, fifty_mb, b'{"name": "')
    assert status(answer) == 413 and b"65536 bytes" in answer


async def test_a_chunked_body_is_refused_once_it_passes_the_limit(running: Running) -> None:
    chunk = b"x" * 8192
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(9))  # 72 kB
    start = head(
        running,
        "PATCH",
        "/api/me",
        "Content-Type: application/json",
        "Transfer-Encoding: chunked",
    )
    answer = await exchange(running, start, chunks)  # no last chunk: it never ends
    assert status(answer) == 413


async def test_a_body_within_the_limit_still_works(running: Running) -> None:
    body = b'{"name": "Budi"}'
    start = head(
        running,
        "PATCH",
        "/api/me",
        "Content-Type: application/json",
        f"Content-Length: {len(body)}",
        "Connection: close",
    )
    assert status(await exchange(running, start, body)) == 200


async def test_too_many_or_too_large_headers_are_refused(running: Running) -> None:
    many = head(running, "GET", "/api/health", *(f"X-Pad-{n}: {n}" for n in range(150)))
    assert status(await exchange(running, many)) == 431
    large = head(running, "GET", "/api/health", "X-Pad: " + "a" * 40_000)
    assert status(await exchange(running, large)) == 431
    endless = head(running, "GET", "/api/health").removesuffix(b"\r\n") + b"X-Pad: " + b"a" * 10**6
    assert status(await exchange(running, endless)) == 431
    fine = head(running, "GET", "/api/health", *(f"X-Pad-{n}: {n}" for n in range(50)))
    assert (
        status(await exchange(running, fine.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n")))
        == 200
    )


async def test_a_head_that_trickles_in_is_closed(running: Running) -> None:
    host = running.base.removeprefix("http://")
    unfinished = f"GET /api/health HTTP/1.1\r\nHost: {host}\r\nX-Slow: ".encode()
    assert status(await exchange(running, unfinished)) == 408  # the rest never comes
    assert status(await exchange(running)) == 408  # a connection that sends nothing at all


async def test_a_body_that_trickles_in_is_answered_408_and_closed(running: Running) -> None:
    start = head(
        running, "PATCH", "/api/me", "Content-Type: application/json", "Content-Length: 100"
    )
    answer = await exchange(running, start, b'{"name": ')  # 91 bytes never come
    assert status(answer) == 408
