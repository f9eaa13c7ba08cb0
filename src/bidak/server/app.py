"""The app factory: ``create_app(settings)`` wires routers, static files and the lifespan.

Nothing is opened at import time. The lifespan opens the database (running migrations), the bus
and the bot pool, re-arms every unfinished match's clock and bot, and closes them all at the end.
"""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from bidak import __version__
from bidak.engine.workers import BotPool
from bidak.server import ws
from bidak.server.bus import bus_from_url
from bidak.server.clocks import Clock, SystemClock
from bidak.server.dice import new_seed
from bidak.server.rooms.service import RoomService
from bidak.server.routes import analysis, matches, me, rooms
from bidak.server.services import Services
from bidak.server.settings import Settings
from bidak.server.store.db import Database
from bidak.server.store.repo import Store

WEB = Path(__file__).resolve().parent.parent / "web"


def create_app(
    settings: Settings | None = None,
    clock: Clock | None = None,
    seeds: Callable[[], str] = new_seed,
) -> FastAPI:
    """The Bidak app. ``clock`` and ``seeds`` (the dice seeds of new matches) are injected by
    tests; the defaults are the system clock and the operating system's secure random source."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        db = Database(settings.database_url)
        await db.migrate()
        bus = bus_from_url(settings.bus_url, name=settings.instance_id or None)
        pool = BotPool()
        store = Store(db)
        the_clock = clock or SystemClock()
        service = RoomService(store, bus, the_clock, settings, pool, seeds)
        app.state.services = Services(settings, db, store, bus, the_clock, pool, service)
        await service.start()
        db.start_checkpoints()
        if settings.gc_threshold is not None:
            tune_collector(settings.gc_threshold)
        try:
            yield
        finally:
            await service.stop()
            await bus.close()
            pool.close()
            await store.close()
            await db.close()

    app = FastAPI(title="Bidak", version=__version__, lifespan=lifespan)
    app.include_router(me.router)
    app.include_router(rooms.router)
    app.include_router(matches.router)
    app.include_router(analysis.router)
    app.include_router(ws.router)

    @app.get("/api/health", tags=["health"])
    async def health() -> dict[str, str]:
        return {"status": "ok", "version": __version__}

    if (WEB / "index.html").exists():
        app.mount("/", StaticFiles(directory=WEB, html=True), name="web")
    return app


def tune_collector(threshold: tuple[int, int, int]) -> None:
    """Freeze what is alive now (modules, the app) out of the cyclic collector's walks and
    collect less often: Bidak's per-action work makes no reference cycles, so the collector
    mostly walks live objects, and a full walk with thousands of connections stalls the
    event loop for as long as it takes."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*threshold)
