"""Rate limits every worker and node shares: a token bucket per key, kept in PostgreSQL
(`rate_take`, schema/109_shared_limits.sql), so N processes behind a proxy allow what one
would, not N times as much."""

from __future__ import annotations

from typing import Any


class RateLimiter:
    """`await allow(pool, key)` spends one token of `kind:key`'s bucket (rate per second, up
    to `burst`): 0.0 when allowed, else the seconds to wait. One round trip."""

    def __init__(self, kind: str, rate: float, burst: int) -> None:
        self.kind, self.rate, self.burst = kind, rate, burst

    def bucket(self, key: str) -> str:
        """The shared row of `key`'s bucket."""
        return f"{self.kind}:{key}"

    async def allow(self, pool: Any, key: str) -> float:
        """Spend one token of `key`'s bucket (a command route's guard spends it together with
        the token check instead: `web.auth.resolve_taking`)."""
        wait = await pool.fetchval(
            "SELECT rate_take($1, $2, $3)", self.bucket(key), self.rate, float(self.burst)
        )
        return float(wait)
