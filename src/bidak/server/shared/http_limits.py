"""Bounds on what one HTTP request may make the server read, and for how long (docs/security.md).

Without them one client could make the process read a 50 MB body before any route looked at it,
send headers without end, or hold connections open by sending a byte now and then. Two parts:

- :class:`BodyGuard`, an ASGI middleware: a body announced larger than ``BIDAK_MAX_BODY_BYTES``
  is answered ``413`` before any of it is read, and a chunked one as soon as it passes the limit;
  a body that does not arrive whole within ``BIDAK_BODY_TIMEOUT`` seconds is answered ``408``. Both
  close the connection. The largest legitimate body is far below the limit (a rename, an address,
  room options), so the guard reads bodies whole and hands the route the bytes.
  A JSON body must be strict JSON (no ``NaN``, infinity or lone surrogate): else ``400``.
- :class:`GuardedHttp`, uvicorn's httptools protocol with limits on the request head: at most
  ``BIDAK_MAX_HEADER_BYTES`` of request line and headers and ``BIDAK_MAX_HEADERS`` headers
  (``431`` past either), and the whole head within ``BIDAK_HEADER_TIMEOUT`` seconds of the
  request's first byte (or of the connection's opening); a client that is slower is disconnected.
  uvicorn has neither limit of its own for httptools.

``bidak serve`` and the tests' servers pass :func:`http_options` to uvicorn; :func:`configure`
(called by the app factory, so in every worker process) sets the head's limits.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bidak.server.shared.http_protocol import HttpProtocol
from bidak.server.shared.validation import strict_json_error

if TYPE_CHECKING:
    from bidak.server.shared.settings import Settings


@dataclass(frozen=True)
class HeadLimits:
    max_bytes: int = 16_384
    max_headers: int = 100
    timeout: float = 10.0


_head = HeadLimits()
LINGER_SECONDS = 2.0
"""How long a connection refused for its head is kept to read and drop what the client still
sends, before it is closed."""


def configure(settings: Settings) -> None:
    """Set this process's limits on request heads from ``settings``."""
    global _head
    _head = HeadLimits(settings.max_header_bytes, settings.max_headers, settings.header_timeout)


def trusted_proxies(settings: Settings) -> str:
    """The addresses whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed: the
    operator's ``FORWARDED_ALLOW_IPS`` (uvicorn's own setting: addresses or networks separated
    by commas, ``*`` for all); unset, none in production and the local host otherwise. Believed
    from anyone else, the header would let every client choose the address the per-client
    limits count it under."""
    named = os.environ.get("FORWARDED_ALLOW_IPS")
    if named is not None:
        return named.strip()
    return "" if settings.environment == "production" else "127.0.0.1"


def http_options(settings: Settings) -> dict[str, Any]:
    """The uvicorn options that bound a request's head (h11's own bound too, where it is used),
    and the proxies whose forwarding headers are believed (:func:`trusted_proxies`)."""
    configure(settings)
    proxies = trusted_proxies(settings)
    return {
        "http": GuardedHttp,
        "h11_max_incomplete_event_size": settings.max_header_bytes,
        "proxy_headers": bool(proxies),
        "forwarded_allow_ips": proxies,
    }


def _raw_answer(status: bytes, text: str) -> bytes:
    body = text.encode()
    return (
        b"HTTP/1.1 " + status + b"\r\ncontent-type: text/plain; charset=utf-8\r\n"
        b"content-length: " + str(len(body)).encode() + b"\r\nconnection: close\r\n\r\n" + body
    )


class GuardedHttp(HttpProtocol):
    """uvicorn's httptools protocol without a cycle per WebSocket (:class:`HttpProtocol`), with
    the request head bounded in size, count and time."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._limits = _head
        self._in_head = True
        self._head_bytes = 0
        self._head_count = 0
        self._head_timer: asyncio.TimerHandle | None = None
        self._closing = False

    def _arm(self) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(self._limits.timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _too_slow(self) -> None:
        self._head_timer = None
        if self._in_head:
            self._answer_and_close(b"408 Request Timeout", "Request head too slow")

    def _answer_and_close(self, status: bytes, text: str) -> None:
        """Answer, stop sending, and close after a moment in which whatever the client still
        sends is read and dropped: closing at once, with its bytes unread, would reset the
        connection and the client might never read the answer."""
        self._disarm()
        if self._closing or self.transport.is_closing():
            return
        self._closing = True
        self.transport.write(_raw_answer(status, text))
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.loop.call_later(LINGER_SECONDS, self.transport.close)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._closing:
            return  # answered and closing: dropped
        if not self._in_head:
            super().data_received(data)
            return
        # The parser gets no more of a head than the limit allows: what follows the allowance
        # is passed on only once the head ended within it (then it is the body, or the next
        # request).
        allowed = max(0, self._limits.max_bytes - self._head_bytes)
        head, rest = data[:allowed], data[allowed:]
        self._head_bytes += len(head)
        if head:
            super().data_received(head)
        if self._closing or self.transport.is_closing():
            return
        if self._in_head and (rest or self._head_count > self._limits.max_headers):
            self._refuse_head()
            return
        if rest:
            protocol = self.transport.get_protocol()
            if protocol is self:
                self.data_received(rest)
            else:  # upgraded to a WebSocket meanwhile
                protocol.data_received(rest)

    def _refuse_head(self) -> None:
        self._answer_and_close(b"431 Request Header Fields Too Large", "Request head too large")

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if not self._in_head:  # a keep-alive connection's next request
            self._in_head = True
            self._head_bytes = 0
            self._arm()
        self._head_count = 0

    def on_body(self, body: bytes) -> None:
        if not self._in_head:  # a refused head has no request to take a body
            super().on_body(body)

    def on_message_complete(self) -> None:
        if not self._in_head:
            super().on_message_complete()

    def on_header(self, name: bytes, value: bytes) -> None:
        self._head_count += 1
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        if self._head_count > self._limits.max_headers:
            return  # still "in the head": refused once the parser returns
        self._in_head = False
        self._disarm()
        super().on_headers_complete()


class BodyGuard:
    """The ASGI middleware that bounds a request's body in size and time."""

    def __init__(self, app: ASGIApp, max_bytes: int, timeout: float) -> None:
        self.app, self.max_bytes, self.timeout = app, max_bytes, timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length: bytes | None = None
        chunked = False
        for name, value in scope["headers"]:
            if name == b"content-length":
                length = value
            elif name == b"transfer-encoding":
                chunked = True
        if length is None and not chunked:
            await self.app(scope, receive, send)
            return
        if length is not None:
            try:
                announced = int(length)
            except ValueError:
                await _refuse(send, 400, "Content-Length is not a number")
                return
            if announced > self.max_bytes:
                await _refuse(send, 413, self._too_large())
                return
        body = bytearray()
        try:
            async with asyncio.timeout(self.timeout):
                while True:
                    message = await receive()
                    if message["type"] != "http.request":
                        return  # the client went away
                    body += message.get("body", b"")
                    if len(body) > self.max_bytes:
                        await _refuse(send, 413, self._too_large())
                        return
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            await _refuse(send, 408, f"The request's body did not arrive within {self.timeout} s")
            return
        if body and _is_json(scope):
            wrong = strict_json_error(bytes(body))
            if wrong is not None:
                await _refuse(send, 400, f"The body is not valid JSON ({wrong})", close=False)
                return
        await self.app(scope, _replay(bytes(body), receive), send)

    def _too_large(self) -> str:
        return f"A request's body is at most {self.max_bytes} bytes"


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


def _is_json(scope: Scope) -> bool:
    for name, value in scope["headers"]:
        if name == b"content-type":
            media: bytes = value.split(b";", 1)[0].strip().lower()
            return media == b"application/json" or (
                media.startswith(b"application/") and media.endswith(b"+json")
            )
    return False


async def _refuse(send: Send, status: int, message: str, close: bool = True) -> None:
    """Answer ``status`` and, by default, close the connection (what is still unread is never
    read)."""
    body = orjson.dumps({"detail": message})
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store"),
    ]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
