"""The reference of ``bidak bench server``: a bare WebSocket relay on the same stack as Bidak
(uvicorn, its WebSocket protocol and JSON) that answers each message on both sockets of its pair
with a reply as large as Bidak's broadcasts were. It is run in its own process
(``python -m bidak.bench.server PORT BYTES``)."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import Any


def relay_app(reply_bytes: int) -> Callable[..., Awaitable[None]]:
    """The reference: a raw ASGI app that answers each message on both sockets of its pair
    (``/pair/<n>``) with JSON of about ``reply_bytes``; ``/api/health`` for :meth:`ready`."""
    pairs: defaultdict[str, set[Callable[[dict[str, Any]], Awaitable[None]]]] = defaultdict(set)
    pad = "x" * reply_bytes

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
        elif scope["type"] == "http":
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b'{"status":"ok"}'})
        elif scope["type"] == "websocket":
            peers = pairs[scope["path"]]
            await receive()
            await send({"type": "websocket.accept"})
            peers.add(send)
            try:
                while (message := await receive())["type"] == "websocket.receive":
                    intent = json.loads(message["text"])
                    reply = {"type": "events", "version": intent["version"] + 1, "pad": pad}
                    text = json.dumps(reply, separators=(",", ":"))
                    for peer in list(peers):
                        await peer({"type": "websocket.send", "text": text})
            finally:
                peers.discard(send)

    return app


def serve_relay(port: int, reply_bytes: int) -> None:
    """Serve :func:`relay_app` on 127.0.0.1:``port`` until stopped."""
    import uvicorn

    uvicorn.run(relay_app(reply_bytes), host="127.0.0.1", port=port, log_level="warning")
