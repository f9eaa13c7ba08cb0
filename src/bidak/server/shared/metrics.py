"""``/metrics``: what an operator watches, in Prometheus' text format (``prometheus-client``).

Served only when ``BIDAK_METRICS`` says so (``docs/operating.md``): ``local`` answers requests
from this machine that came through no proxy, ``open`` answers anyone; off (the default), the
path is not found. Each process counts for itself: with several worker processes on one port, a
scrape is answered by whichever process takes it (run one port per process to scrape each).

The series (every name begins with ``bidak_``):

- ``actions_total{outcome}`` and ``action_seconds``: players' intents by outcome (``accepted``
  or the refusal's code), and from an intent's arrival to its events stored and published;
- ``loop_lag_seconds``, ``loop_stall_recent_seconds``: the event loop's lag
  (:mod:`bidak.server.shared.loop_monitor`), and its longest stall of the last 10 seconds;
- ``gc_pause_seconds{generation}``, ``gc_pause_recent_seconds``, ``gc_full_collections_total``,
  ``heap_blocks``: the cyclic collector's pauses, the longest of the last 10 seconds, the
  full collections (:mod:`bidak.server.shared.collector`) and the heap's allocated memory blocks;
- ``open_sockets``, ``live_matches``: WebSockets open in this process, unfinished matches held;
- ``pairing_wait_seconds``, ``quick_waiting``: quick match, from joining the queue to being
  paired, and the players left waiting by the last pairing pass;
- ``mail_outbox``: letters being sent or waiting for a retry;
- ``analysis_queue{pool}``: hints and reviews admitted and not yet done.
"""

from __future__ import annotations

import ipaddress
import sys
from collections.abc import Callable
from dataclasses import dataclass

from fastapi import APIRouter, HTTPException, Request, Response
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from bidak.server.shared.loop_monitor import Collection, LoopMonitor

LATENCY = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""Histogram buckets (seconds) of an action's latency, the loop's lag and a collection."""
PAIRING = (0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0)


@dataclass(frozen=True)
class Sources:
    """Where the gauges are read at each scrape."""

    monitor: LoopMonitor
    full_collections: Callable[[], int]
    open_sockets: Callable[[], int]
    live_matches: Callable[[], int]
    quick_waiting: Callable[[], int]
    mail_outbox: Callable[[], int]
    analysis_queue: dict[str, Callable[[], int]]


class Metrics:
    """The process's series, in a registry of its own (a test may run several apps)."""

    def __init__(self) -> None:
        self.registry = registry = CollectorRegistry()
        self.actions = Counter(
            "bidak_actions", "Players' intents, by outcome", ["outcome"], registry=registry
        )
        self._action_counters: dict[str, Counter] = {}
        self.action_seconds = Histogram(
            "bidak_action_seconds",
            "From an intent's arrival to its events stored and published",
            buckets=LATENCY,
            registry=registry,
        )
        self.loop_lag = Histogram(
            "bidak_loop_lag_seconds", "The event loop's lag", buckets=LATENCY, registry=registry
        )
        self.gc_pause = Histogram(
            "bidak_gc_pause_seconds",
            "Pauses of Python's cyclic collector, by generation",
            ["generation"],
            buckets=LATENCY,
            registry=registry,
        )
        self.pairing_wait = Histogram(
            "bidak_pairing_wait_seconds",
            "Quick match: from joining the queue to being paired",
            buckets=PAIRING,
            registry=registry,
        )
        self.bot_seconds = Histogram(
            "bidak_bot_decision_seconds",
            "A bot's decision, from asking the bots' threads to the answer (a wait for a free"
            " thread included), by level: a bot seat's, autoplay, or quick (a clock run out)",
            ["level"],
            buckets=LATENCY,
            registry=registry,
        )

    def observe_bot(self, level: str, seconds: float) -> None:
        # A bot decides a few times a second at most: no kept child, unlike the actions'.
        self.bot_seconds.labels(level).observe(seconds)

    def observe_action(self, outcome: str, seconds: float) -> None:
        counter = self._action_counters.get(outcome)
        if counter is None:  # (prometheus_client's labels() takes a lock and a lookup a call)
            counter = self._action_counters[outcome] = self.actions.labels(outcome)
        counter.inc()
        if outcome == "accepted":
            self.action_seconds.observe(seconds)

    def observe_collection(self, collection: Collection) -> None:
        self.gc_pause.labels(str(collection.generation)).observe(collection.seconds)

    def read_from(self, sources: Sources) -> None:
        """The gauges, read at each scrape."""
        registry = self.registry

        def gauge(name: str, text: str, read: Callable[[], float]) -> None:
            Gauge(name, text, registry=registry).set_function(read)

        monitor = sources.monitor
        gauge(
            "bidak_loop_stall_recent_seconds",
            "The event loop's longest stall of the last 10 seconds",
            monitor.recent_stall,
        )
        gauge(
            "bidak_gc_pause_recent_seconds",
            "The longest collection of the last 10 seconds",
            monitor.recent_collection,
        )
        gauge(
            "bidak_gc_full_collections",
            "Full collections since the process started",
            sources.full_collections,
        )
        gauge("bidak_heap_blocks", "Allocated memory blocks", sys.getallocatedblocks)
        gauge("bidak_open_sockets", "WebSockets open in this process", sources.open_sockets)
        gauge("bidak_live_matches", "Unfinished matches this process holds", sources.live_matches)
        gauge(
            "bidak_quick_waiting",
            "Players left waiting by the last quick match pass",
            sources.quick_waiting,
        )
        gauge("bidak_mail_outbox", "Letters being sent or waiting for a retry", sources.mail_outbox)
        queue = Gauge(
            "bidak_analysis_queue",
            "Analyses admitted and not yet done",
            ["pool"],
            registry=registry,
        )
        for pool, read in sources.analysis_queue.items():
            queue.labels(pool).set_function(read)

    def text(self) -> bytes:
        return generate_latest(self.registry)


router = APIRouter()


def allowed(request: Request, mode: str | None) -> bool:
    """Whether ``BIDAK_METRICS`` (``mode``) lets this request read the metrics."""
    if mode == "open":
        return True
    if mode != "local" or request.client is None:
        return False
    # A proxy on this machine would make every visitor look local: it names them in a header.
    if "x-forwarded-for" in request.headers or "forwarded" in request.headers:
        return False
    try:
        return ipaddress.ip_address(request.client.host).is_loopback
    except ValueError:
        return False


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    services = request.app.state.services
    found: Metrics | None = services.metrics
    if found is None or not allowed(request, services.settings.metrics):
        raise HTTPException(404, "Not Found")
    return Response(found.text(), media_type=CONTENT_TYPE_LATEST)
