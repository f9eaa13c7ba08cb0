"""The server's own figures during the measured window: its event loop's longest stall and its
longest collection, read from its ``/metrics`` (``BIDAK_METRICS=local``, which ``bidak bench
server`` sets for the server it starts) every :data:`EVERY` seconds. Each reading covers the
last 10 seconds (``bidak_loop_stall_recent_seconds``, ``bidak_gc_pause_recent_seconds``), so the
readings overlap and every second of the window is covered. Readings in the window's first 10
seconds are skipped (they would count the seconds before it: the crowd's set-up, its quick
match presses); the one at 10 s covers them. With several server processes on
one port, each reading reaches one of them, at random. A server without ``/metrics`` (the
relay, or one given with ``--url`` that does not serve it) gives no figures."""

from __future__ import annotations

import re
import threading
import time
import urllib.request

EVERY = 2.0
"""Seconds between readings (the figures cover 10)."""
COVERS = 10.0
"""Seconds each reading covers (the server's ``recent`` figures)."""
STALL = "bidak_loop_stall_recent_seconds"
COLLECTION = "bidak_gc_pause_recent_seconds"
_SAMPLE = re.compile(rf"^({STALL}|{COLLECTION}) ([0-9.eE+-]+)$", re.MULTILINE)


def read(url: str, timeout: float = 5.0) -> dict[str, float] | None:
    """The two figures from ``url``'s ``/metrics`` now, or None if it does not serve them."""
    try:
        with urllib.request.urlopen(f"{url}/metrics", timeout=timeout) as answer:
            text = answer.read().decode()
    except OSError:
        return None
    found = {name: float(value) for name, value in _SAMPLE.findall(text)}
    return found if len(found) == 2 else None


class LoopWatch:
    """Reads the server's figures from :meth:`start` to :meth:`stop` (in a thread of its own)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.stall: float | None = None
        """The longest loop stall seen, in seconds (None: no reading)."""
        self.collection: float | None = None
        """The longest collection seen, in seconds (None: no reading)."""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._started = 0.0

    def _take(self, last: bool = False) -> None:
        if not last and time.monotonic() - self._started < COVERS:
            return  # it would cover seconds before the window
        found = read(self.url)
        if found is not None:
            self.stall = max(self.stall or 0.0, found[STALL])
            self.collection = max(self.collection or 0.0, found[COLLECTION])

    def _run(self) -> None:
        while not self._stop.wait(EVERY):
            self._take()

    def start(self) -> None:
        self._started = time.monotonic()
        self._thread = threading.Thread(target=self._run, name="bench-loopwatch", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """One last reading (the window's last seconds), then stop."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self._take(last=True)
