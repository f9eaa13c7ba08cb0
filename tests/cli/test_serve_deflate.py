"""``bidak serve`` compresses WebSocket messages only when the operator asks for it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.typing import Origin

from bidak.bench.server import ServerProcess


async def _negotiated(server: ServerProcess) -> list[str]:
    """The extensions a browser-like client that offers permessage-deflate ends up with."""
    await server.ready()
    url = server.url.replace("http", "ws", 1) + "/ws"
    async with connect(url, compression="deflate", proxy=None, origin=Origin(server.url)) as socket:
        return [extension.name for extension in socket.protocol.extensions]


@pytest.mark.parametrize(("setting", "expected"), [(None, []), ("true", ["permessage-deflate"])])
def test_permessage_deflate_is_off_unless_set(
    tmp_path: Path, setting: str | None, expected: list[str]
) -> None:
    server = ServerProcess.bidak(f"sqlite:///{tmp_path / 'bidak.sqlite3'}")
    server.start(**({"BIDAK_WS_DEFLATE": setting} if setting else {}))
    try:
        assert asyncio.run(_negotiated(server)) == expected
    finally:
        server.stop()
