"""Matches played through faults (issue 29): Redis goes away, database connections are killed,
a server process is killed; afterwards nothing shown is lost, doubled or out of order.

Two server processes (:mod:`tests.server.fault_server`, ``bidak serve`` with shorter clocks)
share a PostgreSQL schema of the run's own and a Redis the run starts itself
(:class:`~tests.server.own_redis.OwnRedis`). Scripted browsers
(:mod:`tests.server.fault_browser`) play friend matches, the two players of each on different
processes, a few with both players on one process, and practice matches against the bot. Some
players let their clock run out once. Meanwhile the run stops Redis for a while and starts it
again, kills the schema's database connections in bursts and kills a process with SIGKILL (its
clients go to the other one; it is started again).

:func:`run` returns what went wrong (``problems``, empty when the run held) and its figures.
The suite runs it smoke-sized (``tests/server/test_faults.py``); ``scripts/faults.py`` runs the
full size for ``docs/operating.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bidak.bench.server import ServerProcess, free_port
from tests.server.backends import POSTGRES_ADMIN_URL
from tests.server.fault_browser import WAIT, Browser, Kills, Plan
from tests.server.own_redis import OwnRedis
from tests.server.scripted import Script

ROOT = Path(__file__).parents[2]


@dataclass
class Report:
    problems: list[str] = field(default_factory=list)
    figures: dict[str, Any] = field(default_factory=dict)


KILLED_AT: list[float] = []
"""When the run killed a process (``time.time()``)."""


class Servers:
    """The two server processes, A and B."""

    def __init__(self, folder: Path, database_url: str, bus_url: str, plan: Plan) -> None:
        self.env = {
            "PYTHONPATH": str(ROOT),
            "BIDAK_DATABASE_URL": database_url,
            "BIDAK_BUS_URL": bus_url,
            "BIDAK_ENVIRONMENT": "test",
            "BIDAK_BOT_DELAY": "0",
            "BIDAK_RATE_PER_SECOND": "1000",
            "BIDAK_RATE_BURST": "1000",
            "BIDAK_PLAYER_RATE_PER_SECOND": "1000",
            "BIDAK_PLAYER_RATE_BURST": "1000",
            "BIDAK_GUESTS_PER_MINUTE": "1000000",
            "BIDAK_ROOMS_PER_MINUTE": "1000000",
            "BIDAK_SWEEP_SECONDS": "1",
            "BIDAK_FAULTS_CLOCK_SCALE": str(plan.clock_scale),
            "BIDAK_REDIS_PREFIX": f"bidak-faults-{os.getpid()}:",
        }
        self.processes = {
            name: ServerProcess(
                [sys.executable, "-m", "tests.server.fault_server", str(port)],
                port,
                folder / f"server-{name}.log",
            )
            for name, port in (("a", free_port()), ("b", free_port()))
        }

    async def start(self, name: str) -> None:
        self.processes[name].start(**self.env, BIDAK_INSTANCE_ID=name)
        await self.processes[name].ready()

    def url(self, name: str) -> str:
        return self.processes[name].url

    def stop(self) -> None:
        for process in self.processes.values():
            process.stop()

    def logs(self) -> str:
        return "".join(p.log.read_text(errors="replace") for p in self.processes.values() if p.log)


async def _admin() -> Any:
    import asyncpg  # type: ignore[import-untyped]

    return await asyncpg.connect(POSTGRES_ADMIN_URL)


async def run(plan: Plan, folder: Path, database_url: str) -> Report:
    """Play ``plan``'s matches through its faults on the PostgreSQL schema at
    ``database_url`` (a role and schema of the run's own, as
    :func:`tests.server.backends.new_postgres_schema` makes them)."""
    report = Report()
    redis = OwnRedis(folder)
    await redis.start_async()
    servers = Servers(folder, database_url, redis.url, plan)
    admin = await _admin()
    role = urlsplit(database_url).username or ""
    try:
        await servers.start("a")
        await servers.start("b")
        report.figures["servers"] = {name: servers.url(name) for name in ("a", "b")}
        await _play(plan, servers, redis, admin, role, report)
        logs = servers.logs()
        for needle in ("Exception in ASGI application", "Traceback"):
            if logs.count(needle):
                at = logs.index(needle)
                first = logs[max(0, at - 300) : at + 2500]  # what the failure says, to fix it
                report.problems.append(
                    f"{logs.count(needle)} x {needle!r} in the servers' logs; the first:\n{first}"
                )
        # asyncpg's words for a connection killed in the middle of a transaction (it is still
        # reading the server's last error): counted, each is one refused transaction.
        report.figures["transactions failed by a killed connection"] = logs.count("storage failed")
        report.figures["of which asyncpg said 'another operation is in progress'"] = logs.count(
            "another operation"
        )
    finally:
        servers.stop()
        redis.stop()
        await admin.close()
    return report


async def _play(
    plan: Plan, servers: Servers, redis: OwnRedis, admin: Any, role: str, report: Report
) -> None:
    rng = random.Random(plan.seed)
    kills = Kills()
    a, b = servers.url("a"), servers.url("b")
    matches: list[list[Browser]] = []

    def browser(bases: list[str], n: int) -> Browser:
        script = Script(plan.seed * 1000 + n, double=0.1, drop=0.2)
        return Browser(bases, script, random.Random(n), plan, kills)

    kinds = ["cross"] * plan.cross + ["same"] * plan.same + ["practice"] * plan.practice
    for n, kind in enumerate(kinds):
        if kind == "practice":
            player = browser([b, a], 2 * n)
            options = {"kind": "practice", "length": plan.length, "level": "beginner"}
            player.room = (await player.request("POST", "/api/rooms", json=options))["code"]
            matches.append([player])
            continue
        host = browser([a, b], 2 * n)
        guest = browser([b, a] if kind == "cross" else [a, b], 2 * n + 1)
        options = {"kind": "friend", "length": plan.length, "move_seconds": 30}
        if kind == "cross" and n < plan.stalls:
            options["timeout_policy"] = "three_strikes"
            staller = host if n % 2 else guest
            staller.stall_at, staller.planned = rng.randint(3, 12), True
        room = await host.request("POST", "/api/rooms", json=options)
        await guest.request("POST", f"/api/rooms/{room['code']}/join")
        host.room = guest.room = room["code"]
        matches.append([host, guest])
    browsers = [each for match in matches for each in match]
    started = time.monotonic()
    plays = [asyncio.create_task(each.play()) for each in browsers]
    faults = asyncio.create_task(_faults(plan, servers, redis, admin, role, matches, plays, report))
    done, pending = await asyncio.wait(plays, timeout=plan.limit)
    report.figures["seconds"] = round(time.monotonic() - started, 1)
    faults.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await faults
    for task in pending:
        task.cancel()
    stuck = sum(1 for match in matches if any(plays[browsers.index(x)] in pending for x in match))
    report.figures["matches"] = len(matches)
    report.figures["stuck"] = stuck
    if stuck:
        report.problems.append(f"{stuck} of {len(matches)} matches not over after {plan.limit} s")
    for task in done:
        if task.exception() is not None:
            report.problems.append(f"a browser failed: {task.exception()!r}")
    await _check(matches, report)


async def _check(matches: list[list[Browser]], report: Report) -> None:
    lost = doubled = 0
    for match in matches:
        first = match[0]
        if not first.match:
            report.problems.append(f"room {first.room}: no match seen")
            continue
        log = (await first.request("GET", f"/api/matches/{first.match}/events"))["events"]
        stored = [(item["version"], item["event"]) for item in log]
        if [v for v, _ in stored] != list(range(1, len(stored) + 1)):
            report.problems.append(f"match {first.match}: the stored log has gaps")
        for each in match:
            versions = [v for v, _ in each.shown]
            doubled += len(versions) - len(set(versions))
            lost += len({v for v, _ in stored} - set(versions))
            if each.shown != stored:
                report.problems.append(
                    f"match {first.match} seat {each.seat}: shown {len(each.shown)} events"
                    f" ({len(set(versions))} versions), stored {len(stored)}"
                )
            report.problems += [f"match {first.match}: {e}" for e in each.errors]
    closes = [c for each in (b for m in matches for b in m) for c in each.closes]
    dropped = [c for c in closes if c[1] is None and not c[2]]
    codes: dict[str, int] = {}
    for _, code, _, _ in closes:
        codes[str(code)] = codes.get(str(code), 0) + 1
    stalls = [s for m in matches for b in m for s in b.stalls]
    waiting = [b for m in matches for b in m if b.stalling is not None]
    report.figures |= {
        "events lost": lost,
        "events doubled": doubled,
        "socket closes by code": codes,
        "dropped without a close frame (no kill to explain it)": len(dropped),
        "stalls planned": sum(1 for m in matches for b in m if b.planned),
        "stalled clocks fired": len(stalls),
        "latest timeout after its deadline (s)": round(max(stalls), 2) if stalls else None,
    }
    if lost or doubled:
        report.problems.append(f"{lost} events lost, {doubled} doubled")
    if dropped:
        report.problems.append(f"{len(dropped)} sockets dropped without a close frame")
        report.figures["drops"] = [(base, round(at, 2)) for base, _, _, at in dropped]
        report.figures["kills at"] = [round(at, 2) for at in KILLED_AT]
    if waiting:
        report.problems.append(f"{len(waiting)} stalled clocks never fired")


async def _faults(
    plan: Plan,
    servers: Servers,
    redis: OwnRedis,
    admin: Any,
    role: str,
    matches: list[list[Browser]],
    plays: list[asyncio.Task[Any]],
    report: Report,
) -> None:
    """The faults, one after another, ``plan.gap`` seconds apart, while matches go on."""
    steps: list[tuple[str, float]] = []
    for n in range(max(len(plan.outages), plan.bursts, plan.process_kills)):
        if n < len(plan.outages):
            steps.append(("redis", plan.outages[n]))
        if n < plan.process_kills:
            steps.append(("process", 0))
        if n < plan.bursts:
            steps.append(("database", 0))
    outages: list[dict[str, Any]] = []
    report.figures["redis outages"] = outages
    bursts: list[int] = []
    report.figures["database connections killed per burst"] = bursts
    kills: list[float | None] = []
    report.figures["process kills: seconds until its clients had a table from the other"] = kills
    cross = [m for m in matches if len(m) == 2 and m[0].bases[0] != m[1].bases[0]]
    local = [m for m in matches if m not in cross]
    for kind, seconds in steps:
        await asyncio.sleep(plan.gap)
        if all(play.done() for play in plays):
            return
        if kind == "redis":
            before = {id(m): _shown(m) for m in matches}
            playing = [m for m in local if not all(_over(b) for b in m)]
            redis.stop()
            await asyncio.sleep(seconds)
            during = {id(m): _shown(m) - before[id(m)] for m in matches}
            await redis.start_async()
            back = time.time()
            stored = await admin.fetch(
                f'SELECT id, version FROM "{role}".matches WHERE NOT finished'
            )
            catch_up = await _caught_up(matches, {r["id"]: r["version"] for r in stored}, back)
            outages.append(
                {
                    "seconds": seconds,
                    "events shown meanwhile, cross-process tables": sum(
                        during[id(m)] for m in cross
                    ),
                    "events shown meanwhile, one-process tables": sum(during[id(m)] for m in local),
                    "seconds until every client had what was stored": catch_up,
                }
            )
            if playing and not sum(during[id(m)] for m in playing):
                report.problems.append("no one-process table played on while Redis was away")
            if catch_up is None or catch_up > 2.0:
                report.problems.append(f"after Redis came back, clients caught up in {catch_up} s")
        elif kind == "database":
            killed = 0
            for _ in range(plan.burst_kills):
                killed += await admin.fetchval(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                    " WHERE usename = $1",
                    role,
                )
                await asyncio.sleep(0.1)
            bursts.append(killed)
        else:
            name = "b"
            servers.processes[name].kill()
            killed_at = time.time()
            KILLED_AT.append(killed_at)
            url = servers.url(name)
            counts = matches[0][0].kills.count
            counts[url] = counts.get(url, 0) + 1
            moved = [b for m in matches for b in m if b.bases[0] == url]
            moving = asyncio.create_task(_moved_on(moved, killed_at))
            await asyncio.sleep(1.0)
            await servers.start(name)  # its clients are on the other process meanwhile
            kills.append(await moving)
            for each in moved:  # the matches are split over the two again
                await each.go_home()


def _shown(match: list[Browser]) -> int:
    return sum(len(b.shown) for b in match)


async def _caught_up(
    matches: list[list[Browser]], stored: dict[str, int], since: float
) -> float | None:
    """Seconds from ``since`` until every client has been shown the version stored for its
    match (None: not within WAIT seconds)."""
    end = time.monotonic() + WAIT
    while time.monotonic() < end:
        behind = [
            b
            for m in matches
            for b in m
            if b.match in stored and b.version < stored[b.match] and not _over(b)
        ]
        if not behind:
            return round(time.time() - since, 2)
        await asyncio.sleep(0.02)
    return None


async def _moved_on(moved: list[Browser], since: float) -> float | None:
    """Seconds from ``since`` until each of ``moved`` was sent a table again, by the other
    process (or its match was over)."""
    end = time.monotonic() + WAIT
    while time.monotonic() < end:
        if all((b.snapshots and b.snapshots[-1] > since) or _over(b) for b in moved):
            return round(time.time() - since, 2)
        await asyncio.sleep(0.02)
    return None


def _over(browser: Browser) -> bool:
    return browser.table is not None and browser.table["phase"] == "match_over"
