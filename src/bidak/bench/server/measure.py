"""One measured run (:func:`measure`: the clients in this process or in worker processes, and
the server's CPU share over the window), and the two runs of ``bidak bench server``
(:func:`run`: Bidak, then the bare relay with the same connections, pace and reply size)."""

from __future__ import annotations

import asyncio
import contextlib
import math
import multiprocessing
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bidak.bench.server.clients import run_clients, worker
from bidak.bench.server.cpucap import CpuCap, server_pids
from bidak.bench.server.databases import fresh_database, is_postgres
from bidak.bench.server.load import Load, Routing, Tally, Think
from bidak.bench.server.loopwatch import LoopWatch
from bidak.bench.server.processes import ServerProcess
from bidak.server.shared.openfiles import (
    raise_open_files,  # stdlib only: the server is not imported
)

IN_PROCESS = 300
"""Up to this many matches, the clients run in the calling process."""


@dataclass
class Result:
    name: str
    load: Load
    tally: Tally
    server_cpu: float | None
    """Share of one core the server process used during the window (None: not ours)."""
    loop_stall: float | None = None
    """The server's longest event loop stall in the window, in seconds (None: not told)."""
    collection: float | None = None
    """The server's longest collection in the window, in seconds (None: not told)."""
    throttled: float | None = None
    """How long the CPU cap held the server back in the window, in seconds (None: no cap)."""
    kernel: float | None = None
    """The part of ``server_cpu`` spent in the kernel (its system time), a share of one core."""

    @property
    def mean_message_bytes(self) -> int:
        return self.tally.message_bytes // max(1, self.tally.messages)


def default_workers(matches: int) -> int:
    """0 (this process) for small runs, else one worker process per 1,000 matches, per core."""
    if matches <= IN_PROCESS:
        return 0
    return max(1, min(os.cpu_count() or 1, math.ceil(matches / 1000)))


def measure(
    name: str,
    load: Load,
    workers: int,
    server: ServerProcess | Sequence[ServerProcess] | None = None,
    caps: Sequence[tuple[CpuCap, int]] = (),
) -> Result:
    """Set every pair up, then open the window for all at once and play it to its end.

    ``server``: the process (or the processes, each on its own port) whose CPU is measured.
    ``caps``: each cap takes its process when the window opens. The set-up (thousands of
    guests, rooms and sockets, which a process held to a fifth of a core took minutes to make)
    is not what is measured, so it runs uncapped."""
    import threading

    servers = [server] if isinstance(server, ServerProcess) else list(server or ())
    # (server user and system CPU seconds, time) at the window's open and close
    cpu: list[tuple[tuple[float, float] | None, float]] = []
    held: list[float] = []  # the caps' throttled time at open and close, ms
    watches = [LoopWatch(url) for url in load.urls or (load.url,)]

    def server_cpu() -> tuple[float, float] | None:
        spent = [process.cpu_times() for process in servers]
        told = [times for times in spent if times is not None]
        if not told or len(told) != len(spent):
            return None
        return sum(user for user, _ in told), sum(system for _, system in told)

    def sample() -> None:
        cpu.append((server_cpu(), time.monotonic()))
        held.append(sum(cap.throttled_ms() or 0.0 for cap, _ in caps))

    def close_window() -> None:
        sample()
        for watch in watches:
            watch.stop()

    def started() -> None:
        for cap, pid in caps:
            cap.hold(pid)
        sample()
        for watch in watches:
            watch.start()
        threading.Timer(load.duration, close_window).start()

    if workers <= 0:
        tally = run_clients(load, 0, load.matches, started)
    else:
        context = multiprocessing.get_context("spawn")
        ready, results, go = context.Queue(), context.Queue(), context.Event()
        shares = [load.matches // workers + (n < load.matches % workers) for n in range(workers)]
        starts = [sum(shares[:n]) for n in range(workers)]
        processes = [
            context.Process(
                target=worker, args=(load, start, share, ready, go, results), daemon=True
            )
            for start, share in zip(starts, shares, strict=True)
        ]
        try:
            for process in processes:
                process.start()
            for _ in processes:
                _from_workers(ready, processes)
            started()
            go.set()
            tally = Tally()
            for _ in processes:
                tally.merge(_from_workers(results, processes))
            for process in processes:
                process.join()
        finally:  # interrupted (Ctrl-C, SIGTERM: bidak.cli.bench): no load worker outlives us
            for process in processes:
                if process.is_alive():
                    process.terminate()
            for process in processes:
                if process.pid is not None:
                    process.join(10)
    if len(cpu) < 2:  # every pair ended before the window did
        close_window()
    (cpu_before, opened), (cpu_after, closed) = cpu[:2]
    share = kernel = None
    if cpu_after is not None and cpu_before is not None:
        window = max(1e-9, closed - opened)
        share = (sum(cpu_after) - sum(cpu_before)) / window
        kernel = (cpu_after[1] - cpu_before[1]) / window
    throttled = (held[1] - held[0]) / 1000 if caps else None
    stall = _longest(watch.stall for watch in watches)
    collection = _longest(watch.collection for watch in watches)
    return Result(name, load, tally, share, stall, collection, throttled, kernel)


def _longest(figures: Iterable[float | None]) -> float | None:
    told = [figure for figure in figures if figure is not None]
    return max(told) if told else None


def _capped(
    server: ServerProcess, cores: float, expected: int, tag: str
) -> list[tuple[CpuCap, int]]:
    """A cap of ``cores`` for each of the ``expected`` serving processes of ``server``, with the
    process it is to hold (:func:`measure` moves it in)."""
    assert server.process is not None
    end = time.monotonic() + 30
    pids = server_pids(server.process.pid)
    while len(pids) < expected and time.monotonic() < end:
        time.sleep(0.1)
        pids = server_pids(server.process.pid)
    caps: list[tuple[CpuCap, int]] = []
    try:
        for n, pid in enumerate(pids):
            caps.append((CpuCap(cores, f"{tag}{n}"), pid))
    except BaseException:
        for cap, _ in caps:
            cap.remove()
        raise
    return caps


def _from_workers(queue: Any, processes: list[Any]) -> Any:
    """The next item a worker puts on ``queue``; fails if a worker died instead."""
    import queue as queues

    while True:
        try:
            return queue.get(timeout=1.0)
        except queues.Empty:
            dead = [p.exitcode for p in processes if p.exitcode not in (None, 0)]
            if dead:
                raise RuntimeError(f"a load-generator process failed (exit {dead[0]})") from None


def run(
    matches: int,
    duration: float,
    think: Think,
    url: str | None = None,
    workers: int | None = None,
    deflate: bool = True,
    folder: Path | None = None,
    progress: Callable[[str], None] = lambda text: None,
    server_workers: int = 1,
    bus_url: str | None = None,
    quick: bool = False,
    database_url: str | None = None,
    cap_cores: float | None = None,
    routing: Routing = "any",
) -> list[Result]:
    """Bidak (started here on ``database_url`` or a fresh SQLite file in ``folder``, or the one
    at ``url``), then the bare relay with the same number of connections, pace and reply size.

    ``cap_cores``: each serving process of Bidak runs in a CPU cap of that many cores, the relay
    in one of as many cores as Bidak's processes have together (:mod:`.cpucap`).

    ``routing`` other than ``any``: Bidak's ``server_workers`` processes are started apart, each
    on a port of its own (on one database and bus), and the clients choose the process of each
    player's WebSocket as a load balancer would (:data:`.load.Routing`)."""
    import tempfile

    raise_open_files()
    workers = default_workers(matches) if workers is None else workers
    results: list[Result] = []
    with contextlib.ExitStack() as stack:
        scratch = stack.enter_context(tempfile.TemporaryDirectory(prefix="bidak-bench-"))
        where = folder or Path(scratch)
        servers: list[ServerProcess] = []
        apart = routing != "any" and url is None
        if url is None:
            database = database_url or f"sqlite:///{where / 'bench.sqlite3'}"
            if is_postgres(database):
                database = stack.enter_context(fresh_database(database))
            for n in range(server_workers if apart else 1):
                servers.append(
                    ServerProcess.bidak(
                        database,
                        log=where / (f"server-{n}.log" if apart else "server.log"),
                        workers=1 if apart else server_workers,
                        bus_url=bus_url,
                    )
                )
            for server in servers:
                # Every player of the bench comes from this one address.
                server.start(
                    BIDAK_BOT_DELAY="0",
                    BIDAK_GUESTS_PER_MINUTE="1000000000",
                    BIDAK_METRICS="local",
                )
        caps: list[tuple[CpuCap, int]] = []
        try:
            for server in servers:
                asyncio.run(server.ready())
            if servers:
                url = servers[0].url
            if cap_cores is not None:
                for n, server in enumerate(servers):
                    expected = 1 if apart else server_workers
                    caps += _capped(server, cap_cores, expected, f"bidak{n}-")
                progress(
                    f"{len(caps)} server process(es) to be capped at {cap_cores:g} core each"
                    " while measured"
                )
            assert url is not None
            how = f", {routing} routing over {len(servers)} ports" if apart else ""
            progress(f"bidak at {url}: {matches} matches, think {think}, {workers} workers{how}")
            load = Load(
                "bidak",
                url.rstrip("/"),
                matches,
                duration,
                think,
                deflate=deflate,
                quick=quick,
                urls=tuple(server.url for server in servers) if apart else (),
                routing=routing if apart else "any",
            )
            results.append(measure("bidak", load, workers, servers, caps))
        finally:
            for server in servers:
                server.stop()
            for cap, _ in caps:
                cap.remove()
        relay = ServerProcess.relay(results[0].mean_message_bytes)
        relay.start()
        caps = []
        try:
            asyncio.run(relay.ready())
            if cap_cores is not None:
                caps = _capped(relay, min(64.0, cap_cores * server_workers), 1, "relay")
            progress(f"bare relay at {relay.url}, replies of {results[0].mean_message_bytes} B")
            load = Load("relay", relay.url, matches, duration, think, deflate=deflate)
            results.append(measure("bare relay", load, workers, relay, caps))
        finally:
            relay.stop()
            for cap, _ in caps:
                cap.remove()
    return results
