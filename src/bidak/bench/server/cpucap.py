"""CPU caps for the bench's server processes (``bidak bench server --cap-cores C``, issue 41).

Each capped process gets a control group of its own with a CFS quota of ``C`` cores, so that
one process saturates at a match count the machine can still drive while the load generator,
the database and Redis run uncapped; k processes with k caps must then carry k times as much.

The period is 10 ms, not the kernel's default 100 ms: with a 100 ms period a throttled process
can sit out up to 60 ms at a time, which is a latency the cap makes, not the server. cgroup v2
(``cpu.max`` in a group of the unified hierarchy with the ``cpu`` controller) and cgroup v1
(``cpu.cfs_quota_us`` and ``cpu.cfs_period_us`` under the ``cpu`` hierarchy) are both used where
they can be written; otherwise :func:`unavailable` says why and the bench refuses to pretend.
Groups are removed when the bench is done with them (their processes moved back first).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from bidak.bench.server.processes import children_of

PERIOD_US = 10_000
"""The CFS period: the cap is enforced every 10 ms."""

_V1 = Path("/sys/fs/cgroup/cpu")
_V2 = Path("/sys/fs/cgroup")


def _v2_root() -> Path | None:
    for root in (_V2, _V2 / "unified"):
        controllers = root / "cgroup.controllers"
        if controllers.exists() and "cpu" in controllers.read_text().split():
            return root
    return None


def _root() -> tuple[Path, int] | None:
    """Where groups are made and the cgroup version, or None."""
    if (_V1 / "cpu.cfs_quota_us").exists() or (_V1 / "cgroup.procs").exists():
        return _V1, 1
    found = _v2_root()
    return None if found is None else (found, 2)


def unavailable() -> str | None:
    """Why CPU caps cannot be set here, or None when they can."""
    root = _root()
    if root is None:
        return "no cgroup cpu controller is mounted (/sys/fs/cgroup/cpu or cgroup v2 'cpu')"
    probe = root[0] / f"bidak-bench-probe-{os.getpid()}"
    try:
        probe.mkdir()
    except OSError as refused:
        return f"cannot make a cgroup under {root[0]}: {refused.strerror} (run as root)"
    probe.rmdir()
    return None


class CpuCap:
    """One control group holding one process at ``cores`` of CPU."""

    def __init__(self, cores: float, name: str) -> None:
        if not 0.01 <= cores <= 64:
            raise ValueError(f"a CPU cap is 0.01 to 64 cores, not {cores}")
        root = _root()
        if root is None:
            raise RuntimeError(unavailable() or "no cgroup")
        self.root, self.version = root
        self.cores = cores
        self.path = self.root / f"bidak-bench-{os.getpid()}-{name}"
        self.path.mkdir()
        quota = max(1000, round(cores * PERIOD_US))
        if self.version == 1:
            (self.path / "cpu.cfs_period_us").write_text(str(PERIOD_US))
            (self.path / "cpu.cfs_quota_us").write_text(str(quota))
        else:
            (self.path / "cpu.max").write_text(f"{quota} {PERIOD_US}")

    def hold(self, pid: int) -> None:
        """Move process ``pid`` (all its threads) into the group."""
        (self.path / "cgroup.procs").write_text(str(pid))

    def holds(self) -> list[int]:
        with contextlib.suppress(OSError):
            text = (self.path / "cgroup.procs").read_text()
            return [int(line) for line in text.split()]
        return []

    def throttled_ms(self) -> float | None:
        """How long the kernel has held the group's processes back so far, in ms."""
        with contextlib.suppress(OSError, ValueError):
            for line in (self.path / "cpu.stat").read_text().splitlines():
                name, value = line.split()
                if name == "throttled_time":  # v1: nanoseconds
                    return int(value) / 1e6
                if name == "throttled_usec":  # v2: microseconds
                    return int(value) / 1e3
        return None

    def remove(self) -> None:
        """Move what is left back to the root group and remove the group."""
        for pid in self.holds():
            with contextlib.suppress(OSError):
                (self.root / "cgroup.procs").write_text(str(pid))
        with contextlib.suppress(OSError):
            self.path.rmdir()


def server_pids(pid: int) -> list[int]:
    """The processes that serve: ``pid`` itself, or the worker processes it started (uvicorn's
    supervisor with ``--workers`` only watches them)."""
    workers = [child for child in children_of(pid) if not _is_helper(child)]
    return workers or [pid]


def _is_helper(pid: int) -> bool:
    """multiprocessing's resource tracker and the like: not a server worker."""
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
    except OSError:
        return True
    return b"resource_tracker" in command or b"semaphore_tracker" in command
