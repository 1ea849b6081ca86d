"""Per-token command rate limit: a token bucket per bearer, in this process."""

from __future__ import annotations

import time


class RateLimiter:
    """`allow(key)` spends one token of `key`'s bucket (rate per second, up to `burst`)."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self._buckets: dict[str, tuple[float, float]] = {}

    def allow(self, key: str) -> float:
        """0.0 when allowed; else the seconds to wait before the next command."""
        now = time.monotonic()
        tokens, since = self._buckets.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - since) * self.rate)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            return (1.0 - tokens) / self.rate
        self._buckets[key] = (tokens - 1.0, now)
        if len(self._buckets) > 10_000:  # forget idle bearers; their buckets are full anyway
            self._buckets = {k: v for k, v in self._buckets.items() if now - v[1] < 60}
        return 0.0
