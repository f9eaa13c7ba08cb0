"""How many connections one process can hold: its open-files limit.

Every WebSocket is a file descriptor. Many systems start programs with a soft limit of 1,024
open files (systemd's default), which would cap a server at about 1,000 players, 500 matches,
and refuse the next ones with "Too many open files"; the hard limit is usually far higher, and
a process may raise its own soft limit up to it.
"""

from __future__ import annotations

import contextlib

LOW = 4096
"""Below this many open files a server cannot hold 2,000 matches (two sockets each)."""


def raise_open_files() -> int | None:
    """Lift this process's open-files limit to the hard limit (children inherit it); the limit
    now, or None where the system has no such limit (Windows)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Unix
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        wanted = 1_048_576 if hard == resource.RLIM_INFINITY else hard
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]
