"""Oversized WebSocket messages count against the rate limit, and a client that keeps sending
them is closed (issue 23, change 7).

A probe sent 2,000 messages of 5 kB and got 2,000 ``too_large`` answers and not one
``rate_limited``: the size was checked before the rate, so oversized messages were free.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import websockets

from tests.server.harness import Client, running_server, server_settings

pytestmark = pytest.mark.anyio

OVERSIZED = json.dumps({"type": "ping", "pad": "x" * 5000})  # 5 kB, over the 4 kB limit


async def test_oversized_messages_use_up_the_rate_like_any_other(tmp_path: Path) -> None:
    # A bucket of 3 that refills once in ~17 minutes: the 4th message is past the rate.
    settings = server_settings(tmp_path, rate_per_second=0.001, rate_burst=3)
    async with running_server(settings) as running, Client(running) as client:
        await client.connect()
        answers = []
        for _ in range(4):
            await client.ws.send(OVERSIZED)
            answers.append((await client.receive())["code"])
        assert answers == ["too_large"] * 3 + ["rate_limited"], answers


async def test_a_client_that_keeps_sending_oversized_messages_is_closed(tmp_path: Path) -> None:
    async with running_server(server_settings(tmp_path)) as running, Client(running) as client:
        await client.connect()
        codes = []
        with pytest.raises(websockets.ConnectionClosed) as closed:
            for _ in range(50):
                await client.ws.send(OVERSIZED)
                codes.append((await client.receive())["code"])
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        assert set(codes) == {"too_large"} and len(codes) < 10, codes
        # Another connection of the same browser is not affected.
        await client.connect()
        await client.send({"type": "ping"})
        assert (await client.receive())["type"] == "pong"
