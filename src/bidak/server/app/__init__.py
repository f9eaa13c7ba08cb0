"""The app factory: ``create_app(settings)`` wires routers, static files and the lifespan.

Nothing is opened at import time. The lifespan opens the database (running migrations), the bus
and the bot pool, re-arms every unfinished match's clock and bot, and closes them all at the end.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, WebSocket
from fastapi.exceptions import RequestValidationError
from starlette.types import Receive, Scope, Send

from bidak import __version__
from bidak.engine.workers import BotPool
from bidak.server.accounts import devices, me
from bidak.server.accounts import routes as identity
from bidak.server.accounts.service import Accounts
from bidak.server.accounts.tokens import Signer
from bidak.server.analysis import routes as analysis
from bidak.server.analysis.analyst import Analyst
from bidak.server.app.schemas import Health
from bidak.server.app.services import Services
from bidak.server.app.steps import player_steps
from bidak.server.community import routes as community
from bidak.server.fairplay import routes as fairplay
from bidak.server.fairplay.reviewer import Reviewer
from bidak.server.fairplay.service import FairPlay
from bidak.server.friends import Friends
from bidak.server.friends import routes as friends
from bidak.server.mail.outbox import LogTransport, Outbox, SmtpConfig, SmtpTransport
from bidak.server.matches import routes as matches
from bidak.server.matchmaking import routes as quick_match
from bidak.server.matchmaking.service import QuickMatch
from bidak.server.notifications import (
    Notifications,
    Push,
    Vapid,
    push_routes,
    site_key,
    subject_of,
    unsubscribe_routes,
)
from bidak.server.notifications import routes as notifications
from bidak.server.notifications.mailer import UNSUBSCRIBE_PATH, Mailer
from bidak.server.play import games_routes, ws
from bidak.server.play import routes as rooms
from bidak.server.play.dice import new_seed
from bidak.server.play.service import RoomService
from bidak.server.play.storage import Store
from bidak.server.shared import http_limits
from bidak.server.shared.assets import WebFiles
from bidak.server.shared.bus import bus_from_url
from bidak.server.shared.clocks import Clock, SystemClock
from bidak.server.shared.collector import Collector
from bidak.server.shared.http_limits import BodyGuard
from bidak.server.shared.limiter import Limits, limiter_for
from bidak.server.shared.loop_monitor import LoopMonitor
from bidak.server.shared.metrics import Metrics, Sources
from bidak.server.shared.metrics import router as metrics_router
from bidak.server.shared.presence import presence_for
from bidak.server.shared.security import Refused, SiteCheck, SiteGuard, refuse_socket
from bidak.server.shared.settings import Settings
from bidak.server.shared.sockets import SocketCap, registry_for
from bidak.server.shared.store.db import Database
from bidak.server.shared.validation import invalid_request, quiet_refusals
from bidak.server.tournaments import routes as tournaments_routes
from bidak.server.tournaments.service import Tournaments
from bidak.server.training import Training
from bidak.server.training import routes as training
from bidak.server.wallet import routes as wallet
from bidak.server.wallet.service import Wallets

WEB = Path(__file__).resolve().parents[2] / "web"
log = logging.getLogger(__name__)


class BidakApp(FastAPI):
    """FastAPI, with the game's WebSocket (``/ws``) handed its connections directly.

    A connection that passes through the middleware and routing stack keeps the stack's objects
    alive while it is open, and every message it sends goes back through the stack's wrappers; the
    socket uses nothing from the stack (no dependencies, no HTTP middleware). Measured:
    ``docs/performance.md``, "The WebSocket outside the middleware stack". The route stays
    registered, so the stack still serves ``/ws`` under another root path. The site check of the
    middleware (:mod:`bidak.server.shared.security`) is made here too, before the socket is
    accepted.
    """

    site: SiteCheck

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and scope["path"] == "/ws":
            try:
                self.site.check(scope)
            except Refused as refused:
                await refuse_socket(scope, receive, send, refused)
                return
            scope["app"] = self
            await ws.socket(WebSocket(scope, receive, send))
            return
        await super().__call__(scope, receive, send)


def mail_outbox(settings: Settings, clock: Clock) -> Outbox | None:
    """The letters' way out: SMTP when ``BIDAK_SMTP_URL`` is set, else the log; in production
    without SMTP, none (e-mail features answer 503 and the start says so)."""
    if settings.smtp_url:
        transport: SmtpTransport | LogTransport = SmtpTransport(
            SmtpConfig.from_url(settings.smtp_url)
        )
    elif settings.environment == "production":
        log.warning("no BIDAK_SMTP_URL: e-mail sign-in and account recovery are off")
        return None
    else:
        transport = LogTransport()
    return Outbox(transport, settings.mail_from, clock)


WARM_SCOPE: Scope = {
    "type": "http",
    "method": "GET",
    "path": "/",
    "root_path": "",
    "headers": [],
    "query_string": b"",
}


def warm(app: FastAPI) -> None:
    """Prepare now, before the first request, what the first requests would otherwise prepare
    on the event loop while others wait (docs/performance.md, "Three stalls of a capped
    process").

    FastAPI prepares an included router's routes (their dependencies and pydantic adapters) the
    first time a request is matched against it, on the event loop, all of that router's routes at
    once: 36 ms of CPU for the whole app, and 100 ms of wall time in one request for a process
    held to 0.4 core in the middle of 500 live matches. Matching
    a request for ``/`` against each router, once at start, does it while nobody is waiting.
    The User-Agent parser compiles its rules at its first parse (``devices.prepare``)."""
    for route in app.router.routes:
        route.matches(dict(WARM_SCOPE))
    devices.prepare()


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
        db = Database(settings.database_url, settings.sqlite_sync)
        await db.migrate()
        bus = bus_from_url(settings.bus_url, name=settings.instance_id or None)
        pool = BotPool()
        store = Store(db)
        steps = player_steps()
        store.player_steps = steps
        the_clock = clock or SystemClock()
        service = RoomService(store, bus, the_clock, settings, pool, seeds)
        # Hints and reviews on pools of their own: a hint is wanted now, a review takes long.
        hints = Analyst(settings.hint_workers, settings.analysis_waiting, "bidak-hint")
        reviews = Analyst(settings.review_workers, settings.analysis_waiting, "bidak-review")
        wallets = Wallets(db, the_clock, settings.checkin_tz)
        # With a Redis bus the limits and the open sockets are counted in Redis too, so they
        # hold for the whole site, however many processes serve it.
        name = settings.instance_id or None
        limits = Limits.from_settings(
            settings, limiter_for(settings.bus_url, settings.redis_prefix, name)
        )
        registry = registry_for(settings.bus_url, settings.redis_prefix, name)
        sockets = SocketCap(registry, bus, settings.sockets_per_session, settings.redis_prefix)
        fair = FairPlay(db, the_clock)
        quick = QuickMatch(db, service, bus, the_clock, fair.extra_wait)
        outbox = mail_outbox(settings, the_clock)
        signer = Signer(settings.secret_key)
        metrics = Metrics() if settings.metrics is not None else None
        monitor = LoopMonitor(
            on_lag=metrics.loop_lag.observe if metrics else lambda seconds: None,
            on_collection=metrics.observe_collection if metrics else lambda collection: None,
        )
        accounts = Accounts(db, outbox, the_clock, limits, signer, sockets, steps)
        tournaments = Tournaments(db, service, bus, the_clock, settings)
        # Every rated match reviewed in the background, only while hints and reviews are idle.
        reviewer = Reviewer(db, fair, the_clock, (hints, reviews))
        training_service = Training(db, the_clock)
        notes = Notifications(db, the_clock)
        service.notify = fair.notify = notes.tell_quietly
        # E-mail notifications (the digest, time almost up) need a way out for letters.
        mailer = None
        if outbox is not None:
            mailer = Mailer(db, the_clock, notes, outbox, service, settings)
            notes.add_channel(mailer.tell)
        presence = presence_for(settings.bus_url, settings.redis_prefix, name)
        push = Push(db, the_clock, notes, presence, settings)
        notes.add_channel(push.told)
        vapid_key = await site_key(db, settings.vapid_private_key, the_clock.now())
        subject = subject_of(settings.vapid_subject, settings.mail_from, settings.public_url)
        friends_service = Friends(db, service, the_clock, notes)
        app.state.services = Services(
            settings,
            db,
            store,
            bus,
            the_clock,
            pool,
            service,
            hints,
            reviews,
            limits,
            sockets,
            wallets,
            quick,
            accounts,
            signer,
            tournaments,
            fair,
            reviewer,
            training_service,
            notes,
            friends_service,
            push,
            presence,
            monitor,
            metrics,
            mailer,
        )
        await sockets.start()
        await service.start()
        quick.start()
        tournaments.start()
        reviewer.start()
        if mailer is not None:
            mailer.start()
        await push.start(Vapid(vapid_key, subject))
        db.start_checkpoints()
        warm(app)
        collector = None
        if settings.gc_freeze_seconds is not None:
            # Full collections wait for a moment without play (bidak.server.shared.collector).
            collector = Collector(
                settings.gc_freeze_seconds, busy=lambda: service.actor.live_matches > 0
            )
            collector.start()
        monitor.start()
        if metrics is not None:
            service.on_action = metrics.observe_action
            service.bots.on_decision = metrics.observe_bot
            quick.on_paired = metrics.pairing_wait.observe
            counted = collector
            metrics.read_from(
                Sources(
                    monitor=monitor,
                    full_collections=lambda: counted.full_collections if counted else 0,
                    open_sockets=lambda: len(sockets),
                    live_matches=lambda: service.actor.live_matches,
                    quick_waiting=lambda: quick.waiting,
                    mail_outbox=lambda: outbox.pending if outbox else 0,
                    analysis_queue={"hint": lambda: hints.queued, "review": lambda: reviews.queued},
                )
            )
        try:
            yield
        finally:
            await monitor.stop()
            if collector is not None:
                await collector.stop()
            await quick.stop()
            await tournaments.stop()
            await reviewer.stop()
            if mailer is not None:
                await mailer.stop()
            await push.stop()
            await accounts.close()
            if outbox is not None:
                await outbox.close()
            await service.stop()
            await sockets.stop()
            await presence.close()
            await limits.limiter.close()
            await bus.close()
            await training_service.settle()  # cards being banked, on the reviews' pool
            hints.close()
            reviews.close()
            pool.close()
            await store.close()
            await db.close()

    # No Swagger or ReDoc pages: they run a CDN's scripts on the site's origin, which the page
    # policy forbids; /openapi.json describes the API for any viewer.
    app = BidakApp(
        title="Bidak", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None
    )
    # Without a public address, the one the server was told to listen on is its own too (the
    # unspecified 0.0.0.0 names no host; the address each request reached counts anyway).
    listening = () if settings.host in ("0.0.0.0", "::", "") else (settings.host,)
    # The one-click unsubscribe comes from a mail provider: its signed token authorises it.
    app.site = SiteCheck(settings.public_url, listening, signed=(UNSUBSCRIBE_PATH,))
    # Innermost first: the body's bounds run inside the site check (whose refusals read no
    # body), and configure() sets this process's bounds on request heads (http_limits).
    http_limits.configure(settings)
    app.add_middleware(BodyGuard, max_bytes=settings.max_body_bytes, timeout=settings.body_timeout)
    app.add_middleware(SiteGuard, check=app.site)
    # A request that fails validation is answered without echoing what it sent (validation).
    app.add_exception_handler(RequestValidationError, invalid_request)
    quiet_refusals()  # an invalid frame is the client's error: one line, no traceback
    app.include_router(me.router)
    app.include_router(rooms.router)
    app.include_router(games_routes.router)
    app.include_router(matches.router)
    app.include_router(analysis.router)
    app.include_router(wallet.router)
    app.include_router(quick_match.router)
    app.include_router(community.router)
    app.include_router(tournaments_routes.router)
    app.include_router(training.router)
    app.include_router(identity.router)
    app.include_router(fairplay.router)
    app.include_router(notifications.router)
    app.include_router(unsubscribe_routes.router)
    app.include_router(friends.router)
    app.include_router(push_routes.router)
    app.include_router(ws.router)
    app.include_router(metrics_router)

    @app.get("/api/health", tags=["health"], response_model=Health)
    async def health() -> Health:
        return Health(status="ok", version=__version__)

    if (WEB / "index.html").exists():
        app.mount("/", WebFiles(WEB), name="web")
    return app
