"""GNU Backgammon at arm's length: :mod:`bidak.bench.gnubg_worker` in a process of its own,
spoken to over pipes, one question and its answer a call (gnubg is GPL, and its bindings can
crash or hang: a worker that does not answer within its deadline is killed, and the next
question starts another). Used by the duels (:mod:`bidak.bench.gnubg_duel`) and the scripts
that ask gnubg about positions.
"""

from __future__ import annotations

import json
import selectors
import subprocess
import sys
from typing import Any

MISSING = (
    "GNU Backgammon's Python package is not installed: pip install -e '.[bench]' "
    "(or pip install gnubg) and run again"
)


class GnubgFailed(RuntimeError):
    """The worker crashed, hung past its deadline, or answered with an error."""


def gnubg_available(python: str = sys.executable) -> bool:
    """Whether ``python`` can import gnubg (asked in a process of its own, as the bench would)."""
    probe = subprocess.run(
        [python, "-c", "import gnubg"], capture_output=True, timeout=60, check=False
    )
    return probe.returncode == 0


class GnubgProcess:
    """One :mod:`bidak.bench.gnubg_worker` process; a question and its answer per call."""

    def __init__(self, deadline: float = 60.0, python: str = sys.executable) -> None:
        self.deadline, self.python = deadline, python
        self._process: subprocess.Popen[str] | None = None

    def _start(self) -> subprocess.Popen[str]:
        if self._process is None or self._process.poll() is not None:
            self._process = subprocess.Popen(
                [self.python, "-m", "bidak.bench.gnubg_worker"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        return self._process

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        process = self._start()
        assert process.stdin is not None and process.stdout is not None
        try:
            process.stdin.write(json.dumps(request) + "\n")
            process.stdin.flush()
        except BrokenPipeError:
            self.close()
            raise GnubgFailed("the gnubg worker is gone") from None
        with selectors.DefaultSelector() as waiting:
            waiting.register(process.stdout, selectors.EVENT_READ)
            ready = waiting.select(self.deadline)
        line = process.stdout.readline() if ready else ""
        if not line:
            code = process.poll()
            self.close()
            if code is not None and not ready:
                raise GnubgFailed(f"the gnubg worker stopped (exit {code})")
            raise GnubgFailed(f"the gnubg worker did not answer in {self.deadline:.0f} s")
        reply: dict[str, Any] = json.loads(line)
        if "error" in reply:
            raise GnubgFailed(str(reply["error"]))
        return reply

    def close(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.wait()
            self._process = None
