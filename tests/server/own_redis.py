"""A Redis server of a test's own, on its own port, that the test stops and starts again.

The machine's Redis (``BIDAK_TEST_REDIS_URL``) is shared: a test that takes Redis away starts
one of its own with ``redis-server`` (skips when it is not installed, fails under ``CI=true``).
Nothing is saved to disk, so a restart comes back empty, as a Redis used only for pub/sub and
limits may.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bidak.bench.server import free_port
from tests.server.backends import unavailable


class OwnRedis:
    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.folder = folder
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no", "--dir", str(self.folder)]
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        end = time.monotonic() + 10
        while time.monotonic() < end:
            ping = subprocess.run(
                ["redis-cli", "-p", str(self.port), "ping"], capture_output=True, check=False
            )
            if ping.stdout.strip() == b"PONG":
                return
            time.sleep(0.02)
        raise TimeoutError(f"redis-server on port {self.port} did not answer")

    async def start_async(self) -> None:
        await asyncio.to_thread(self.start)

    def stop(self) -> None:
        """SIGKILL: every connection drops at once, as in a crash or a network cut."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.process = None


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    if shutil.which("redis-server") is None or shutil.which("redis-cli") is None:
        unavailable("redis-server", "not installed")
    redis = OwnRedis(tmp_path)
    redis.start()
    try:
        yield redis
    finally:
        redis.stop()
