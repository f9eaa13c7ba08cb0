"""Token buckets: how often one connection, address or player may do something.

A bucket holds up to ``burst`` tokens and gains ``rate`` a second; each act takes one (or
``cost``). Time comes from the caller (``now``), so the server passes its clock and tests move it
by hand. Pure logic: :mod:`bidak.server.shared.limiter` keeps these in memory or in Redis.
"""

from __future__ import annotations

from collections.abc import Hashable


class Bucket:
    """One token bucket: ``rate`` acts a second on average, bursts of up to ``burst``."""

    __slots__ = ("burst", "last", "rate", "tokens")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens = float(burst)
        self.last = now

    def _refill(self, now: float) -> None:
        self.tokens = min(self.burst, self.tokens + max(0.0, now - self.last) * self.rate)
        self.last = max(self.last, now)

    def take(self, now: float, cost: float = 1.0, need: float | None = None) -> float:
        """Take ``cost`` tokens if ``need`` (by default ``cost``) are there: 0.0 if they were,
        else the seconds until they are. ``cost`` 0 with ``need`` 1 asks without taking."""
        self._refill(now)
        need = cost if need is None else need
        if self.tokens >= need:
            self.tokens -= cost
            return 0.0
        return (need - self.tokens) / self.rate

    def full(self, now: float) -> bool:
        self._refill(now)
        return self.tokens >= self.burst


class Buckets:
    """A bucket per key (a client address, a player), holding at most about ``size`` keys.

    A key whose bucket has filled up again carries nothing worth keeping, so those go first when
    there are too many keys; if all are in use, the ones used longest ago go.
    """

    def __init__(self, rate: float, burst: float, size: int = 100_000) -> None:
        self.rate, self.burst, self.size = rate, burst, size
        self._buckets: dict[Hashable, Bucket] = {}

    def take(
        self, key: Hashable, now: float, cost: float = 1.0, need: float | None = None
    ) -> float:
        """Take ``cost`` tokens from ``key``'s bucket (if ``need`` are there, :meth:`Bucket.take`):
        0.0, or the seconds until they are there."""
        bucket = self._buckets.pop(key, None)  # re-inserted last: the dict is oldest-use first
        if bucket is None:
            if len(self._buckets) >= self.size:
                self._forget(now)
            bucket = Bucket(self.rate, self.burst, now)
        self._buckets[key] = bucket
        return bucket.take(now, cost, need)

    def _forget(self, now: float) -> None:
        for key in [k for k, b in self._buckets.items() if b.full(now)]:
            del self._buckets[key]
        if len(self._buckets) >= self.size:
            for key in list(self._buckets)[: max(1, len(self._buckets) // 2)]:
                del self._buckets[key]

    def __len__(self) -> int:
        return len(self._buckets)
