"""The one owner of loaded engine instances in a process.

Making an :class:`~bidak.engine.sage.Evaluator` reads the network weights (55-110 ms), and
evaluators are thread-safe, so the bots, hints, reviews, calibration and the CLI all take theirs
from :func:`shared_engines`: one evaluator per ply for the whole process, made on first use.
"""

from __future__ import annotations

import functools
import threading

from bidak.engine.sage import Evaluator


class Engines:
    """One :class:`Evaluator` per ply, made on first use and shared."""

    def __init__(self) -> None:
        self._by_ply: dict[str, Evaluator] = {}
        self._lock = threading.Lock()

    def evaluator(self, ply: str) -> Evaluator:
        found = self._by_ply.get(ply)
        if found is None:
            with self._lock:
                found = self._by_ply.get(ply)
                if found is None:
                    found = self._by_ply[ply] = Evaluator(ply)
        return found


@functools.cache
def shared_engines() -> Engines:
    """The process's engines, made on first call (not at import)."""
    return Engines()
