"""uvicorn's HTTP protocol (httptools), leaving no reference cycle when a connection becomes a
WebSocket.

The protocol and its parser hold each other (the parser calls the protocol's bound methods).
uvicorn breaks that when the connection is lost, but a connection upgraded to a WebSocket is
handed to another protocol and this one is never told it is lost: each WebSocket left one
protocol, its parser, its request's scope and headers for the cyclic collector (a full collection,
``docs/performance.md``). :class:`HttpProtocol` lets go of the parser once it has handed over.
"""

from __future__ import annotations

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class HttpProtocol(HttpToolsProtocol):
    """``bidak serve``'s HTTP protocol (``uvicorn.run(..., http=HttpProtocol)``)."""

    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        # Called once the parser has stopped at the upgrade; the WebSocket protocol has the
        # transport now and this one is done with.
        self.parser = None  # type: ignore[assignment]
