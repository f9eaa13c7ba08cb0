"""Share pictures kept cheap: a bounded cache keyed by everything a picture depends on, and a
renderer of its own with a fixed number of threads, so a burst costs a bounded amount of CPU
and memory and a repeat costs nothing (issue 37).

A PNG is about 0.2 s of one core and tens of megabytes while it is drawn (Pillow draws at
:data:`~bidak.server.training.share.SUPERSAMPLE` times the size, then shrinks). Drawn on
asyncio's default executor, a burst of 150 spread over as many threads as the machine allows,
each with an allocator arena of its own that the process then kept (issue 37's probe: 190 MB
became 441 MB and stayed). Here at most :data:`RENDERERS` pictures are drawn at once, always on
the same threads, and the pictures themselves are kept in an LRU of at most
:data:`CACHE_ENTRIES`, by a key of the picture's kind, the position and the three looks (the
board, the asker's checkers, the other's).
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Final

from bidak.economy.shop import BoardTheme, CheckerSet
from bidak.server.training.share import position_png, position_svg

RENDERERS: Final = 2
"""Pictures drawn at once, on threads of their own (the rest wait their turn)."""
CACHE_ENTRIES: Final = 256
"""Pictures kept: a PNG is about 30 kB, so at most about 8 MB."""

Key = tuple[str, str, str, str, str]


M_MMAP_THRESHOLD = -3
"""glibc's ``mallopt`` parameter: allocations from this size up are mapped, and unmapped when
freed."""
MAPPED_FROM = 4 << 20
"""A drawing's canvases (several megabytes each) are mapped from this size up. glibc's own
threshold rises with every large block freed, up to 32 MB, after which the canvases came from
the threads' heaps and stayed there."""


def _trim() -> Callable[[], object] | None:
    """glibc's ``malloc_trim``, which gives the freed heap back to the system, where there is
    one (None elsewhere: musl, macOS). Also fixes the mapping threshold at
    :data:`MAPPED_FROM` (it affects only blocks of that size, which the server otherwise
    hardly makes)."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
        libc.mallopt(M_MMAP_THRESHOLD, MAPPED_FROM)
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    return lambda: trim(0)


_TRIM = _trim()


def _drawn_and_trimmed(draw: Callable[[], bytes | str]) -> bytes | str:
    """Draw, then give the drawing's buffers back to the system: a PNG is drawn on a canvas of
    several megabytes, which glibc otherwise keeps in the thread's arena after it is freed."""
    try:
        return draw()
    finally:
        if _TRIM is not None:
            _TRIM()


class Pictures:
    """The share pictures of one process: cached, and drawn at most :data:`RENDERERS` at once."""

    def __init__(self, renderers: int = RENDERERS, entries: int = CACHE_ENTRIES) -> None:
        self._pool = ThreadPoolExecutor(renderers, thread_name_prefix="bidak-picture")
        self._cache: OrderedDict[Key, bytes | str] = OrderedDict()
        self._entries = entries
        self.drawn = 0
        """Pictures drawn since the start (a cached one is not drawn again)."""

    @staticmethod
    def key(kind: str, xgid: str, board: BoardTheme, mine: CheckerSet, theirs: CheckerSet) -> Key:
        return (kind, xgid, board.id, mine.id, theirs.id)

    def cached(self, key: Key) -> bytes | str | None:
        found = self._cache.get(key)
        if found is not None:
            self._cache.move_to_end(key)
        return found

    async def png(
        self, xgid: str, board: BoardTheme, mine: CheckerSet, theirs: CheckerSet
    ) -> bytes:
        """The PNG of the position in these looks (``BidakError`` for a bad ID,
        ``NoRasteriser`` without Pillow)."""
        key = self.key("png", xgid, board, mine, theirs)
        found = await self._get(key, lambda: position_png(xgid, board, mine, theirs))
        assert isinstance(found, bytes)
        return found

    async def svg(self, xgid: str, board: BoardTheme, mine: CheckerSet, theirs: CheckerSet) -> str:
        key = self.key("svg", xgid, board, mine, theirs)
        found = await self._get(key, lambda: position_svg(xgid, board, mine, theirs))
        assert isinstance(found, str)
        return found

    async def _get(self, key: Key, draw: Callable[[], bytes | str]) -> bytes | str:
        found = self.cached(key)
        if found is not None:
            return found
        if key[0] == "svg":
            picture = draw()  # a few milliseconds: no thread needed
        else:
            picture = await asyncio.get_running_loop().run_in_executor(
                self._pool, _drawn_and_trimmed, draw
            )
        self.drawn += 1
        self._cache[key] = picture
        while len(self._cache) > self._entries:
            self._cache.popitem(last=False)
        return picture
