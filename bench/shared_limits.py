"""What the shared limits (issue 32) add to a command and a /live connect: one round trip to
`rate_take` (a command, a login) or `live_take` + `live_leave` (a /live socket), against the
bare `SELECT 1` round trip on the same connection, same run, interleaved.

    .venv/bin/python bench/shared_limits.py [--n 3000]

The database is DATABASE_URL or a throwaway embedded PostgreSQL (migrated here). Prints
microseconds per call (p50, p99) and the ratio to `SELECT 1`.
"""

from __future__ import annotations

import argparse
import asyncio
import time
import uuid

from live import database
from live_audience import quantiles


async def measure(url: str, n: int) -> dict[str, list[float]]:
    import asyncpg

    conn = await asyncpg.connect(url)
    node = uuid.uuid4()
    calls = {
        "SELECT 1": lambda i: conn.fetchval("SELECT 1"),
        "rate_take": lambda i: conn.fetchval(
            "SELECT rate_take($1, $2, $3)", f"command:{i % 16}", 1000.0, 1000.0
        ),
        "live_take+leave": lambda i: _live(conn, node, f"10.0.0.{i % 16}"),
    }
    times: dict[str, list[float]] = {name: [] for name in calls}
    try:
        for i in range(n):
            for name, call in calls.items():
                started = time.perf_counter()
                await call(i)
                times[name].append(time.perf_counter() - started)
    finally:
        await conn.close()
    return times


async def _live(conn, node: uuid.UUID, client: str) -> None:
    await conn.fetchval("SELECT live_take($1, $2, 200)", node, client)
    await conn.execute("SELECT live_leave($1, $2)", node, client)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=3000)
    cfg = parser.parse_args()
    from tableside.db import migrations

    with database() as url:
        migrations.apply(url)
        times = asyncio.run(measure(url, cfg.n))
    base = quantiles(times["SELECT 1"])
    for name, samples in times.items():
        q = quantiles(samples)  # milliseconds
        print(
            f"{name:16} p50 {q[0] * 1000:7.0f} µs  p99 {q[1] * 1000:7.0f} µs"
            f"  | ratio to SELECT 1 (p50) {q[0] / base[0]:.2f}x"
        )


if __name__ == "__main__":
    main()
