"""Servers in subprocesses on 127.0.0.1: ``bidak serve`` or the bare relay, started, awaited,
measured (their CPU time, from ``/proc``) and stopped; the crash tests kill them."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class ServerProcess:
    """A server on 127.0.0.1 in a subprocess: ``bidak serve`` or the bare relay.

    The crash test kills it with SIGKILL (:meth:`kill`) and starts it again on the same port.
    """

    def __init__(self, command: list[str], port: int, log: Path | None = None) -> None:
        self.command, self.port, self.log = command, port, log
        self.process: subprocess.Popen[bytes] | None = None

    @classmethod
    def bidak(
        cls,
        database_url: str,
        port: int | None = None,
        log: Path | None = None,
        workers: int = 1,
        bus_url: str | None = None,
    ) -> ServerProcess:
        port = port or free_port()
        command = [sys.executable, "-c", "from bidak.cli import main; main()", "serve"]
        command += ["--host", "127.0.0.1", "--port", str(port), "--database-url", database_url]
        if workers > 1:
            command += ["--workers", str(workers)]
        if bus_url:
            command += ["--bus-url", bus_url]
        return cls(command, port, log)

    @classmethod
    def relay(cls, reply_bytes: int, port: int | None = None) -> ServerProcess:
        port = port or free_port()
        command = [sys.executable, "-m", "bidak.bench.server", str(port), str(reply_bytes)]
        return cls(command, port)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, **env: str) -> None:
        """Start the process; ``env`` adds variables (``BIDAK_BOT_DELAY="0"``, ...)."""
        output = self.log.open("ab") if self.log else subprocess.DEVNULL
        try:
            self.process = subprocess.Popen(
                self.command,
                env={**os.environ, **env},
                stdin=subprocess.DEVNULL,
                stdout=output,
                stderr=subprocess.STDOUT,
            )
        finally:
            if self.log:
                output.close()  # type: ignore[union-attr]

    async def ready(self, timeout: float = 60.0) -> None:
        """Wait until ``GET /api/health`` answers 200."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(f"the server exited with status {self.process.returncode}")
            with contextlib.suppress(OSError):
                if await _health(self.port):
                    return
            await asyncio.sleep(0.05)
        raise TimeoutError(f"no server answered on port {self.port} within {timeout:g} s")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, like a power cut of the process."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()

    def cpu_times(self) -> tuple[float, float] | None:
        """User and system CPU time of the process and its worker processes (Linux), or None:
        the system part is the kernel's work for it (syncs, sockets, page faults)."""
        if self.process is None:
            return None
        own = _cpu_ticks(self.process.pid)
        if own is None:
            return None
        told = [own] + [_cpu_ticks(child) for child in children_of(self.process.pid)]
        ticks = [times for times in told if times is not None]
        hertz = os.sysconf("SC_CLK_TCK")
        return sum(user for user, _ in ticks) / hertz, sum(system for _, system in ticks) / hertz


def _stat(pid: int) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _cpu_ticks(pid: int) -> tuple[int, int] | None:
    fields = _stat(pid)
    return None if fields is None else (int(fields[11]), int(fields[12]))


def children_of(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` now (Linux, from /proc)."""
    return [
        int(entry.name)
        for entry in Path("/proc").iterdir()
        if entry.name.isdigit() and _parent(int(entry.name)) == pid
    ]


def _parent(pid: int) -> int | None:
    fields = _stat(pid)
    return None if fields is None else int(fields[1])


async def _health(port: int) -> bool:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(b"GET /api/health HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        await writer.drain()
        status = await asyncio.wait_for(reader.readline(), 5)
        return status.split()[1:2] == [b"200"]
    finally:
        writer.close()
