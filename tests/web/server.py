"""A real Bidak server for browser tests: uvicorn on a free loopback port, in a thread of its
own with its own event loop, a fresh SQLite database, and fixed dice seeds."""

from __future__ import annotations

import asyncio
import hashlib
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import uvicorn

from bidak.server.analysis.analyst import Analyst
from bidak.server.app import create_app
from bidak.server.app.services import Services
from bidak.server.shared.clocks import Clock
from bidak.server.shared.settings import Settings

T = TypeVar("T")


def seeded(base: str) -> Callable[[], str]:
    """Dice seeds for successive matches, fixed by ``base`` so a test replays the same dice."""
    counter = iter(range(10**9))
    return lambda: hashlib.sha256(f"{base}:{next(counter)}".encode()).hexdigest()


class ServerThread:
    def __init__(
        self, tmp_path: Path, clock: Clock | None = None, seed: str = "web", **overrides: Any
    ) -> None:
        values: dict[str, Any] = {
            "database_url": f"sqlite:///{tmp_path / 'bidak.sqlite3'}",
            "environment": "test",
            "bot_delay": 0.0,
        }
        values.update(overrides)
        self.app = create_app(Settings(**values), clock, seeded(seed))
        self.loop = asyncio.new_event_loop()
        self.server: uvicorn.Server | None = None
        self.thread = threading.Thread(target=self._run, name="bidak-web-server", daemon=True)
        self.started = threading.Event()
        self.failure: BaseException | None = None
        self.base = ""
        self._held: list[asyncio.Future[Any]] = []

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(self._serve())
        except BaseException as error:  # pragma: no cover - reported by start()
            self.failure = error
            self.started.set()
        finally:
            self.loop.close()

    async def _serve(self) -> None:
        config = uvicorn.Config(
            self.app, host="127.0.0.1", port=0, log_level="warning", lifespan="on"
        )
        self.server = uvicorn.Server(config)
        task = asyncio.create_task(self.server.serve())
        while not self.server.started and not task.done():
            await asyncio.sleep(0.01)
        if self.server.started:
            port = self.server.servers[0].sockets[0].getsockname()[1]
            self.base = f"http://127.0.0.1:{port}"
        self.started.set()
        await task

    def start(self) -> ServerThread:
        self.thread.start()
        self.started.wait(30)
        if self.failure is not None or not self.base:
            raise RuntimeError(f"the server did not start: {self.failure!r}")
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.should_exit = True
        self.thread.join(15)
        if self.thread.is_alive():
            raise TimeoutError("the server's thread did not stop within 15 s")

    def call(self, make: Callable[[], Awaitable[T]], timeout: float = 30) -> T:
        """Run a coroutine on the server's loop (to move a manual clock, or to settle)."""

        async def run() -> T:
            return await make()

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(timeout)

    def occupy(self, analyst: Analyst) -> threading.Event:
        """Give ``analyst`` work (on its only thread, when it has one) that lasts until the
        returned event is set, as another player's hint or review would."""
        release = threading.Event()

        async def take() -> None:  # returns once the work has its thread
            self._held.append(asyncio.ensure_future(analyst.run(release.wait)))
            await asyncio.sleep(0)

        self.call(take)
        return release

    @property
    def services(self) -> Services:
        services: Services = self.app.state.services
        return services
