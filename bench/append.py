"""Append N single-event commands through the store's full path, then raw asyncpg INSERTs.

Both run in one process against one database (DATABASE_URL — a superuser's, to make the
roles — else a throwaway embedded PostgreSQL), with synchronous_commit on, and print
events/s, p50, p99 and the ratio. The store appends as the server does: as tableside_app,
through the SECURITY DEFINER append function (tableside.db.roles); raw INSERTs run as the
owner into a copy of the table without triggers.

    .venv/bin/python bench/append.py [--n 20000] [--streams 100] [--rounds 10]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import asyncpg
import msgspec
import psycopg
from tableside.db import migrations, roles
from tableside.db.embedded import EmbeddedPostgres
from tableside.db.url import with_dbname
from tableside.eventlog import EventRegistry, EventStore


class StrokeRecorded(msgspec.Struct, frozen=True, tag="bench.StrokeRecorded"):
    """A stroke-sized event."""

    player: str
    pocketed: tuple[int, ...]
    foul: str | None = None


RAW_TABLE = """
CREATE TABLE bench_raw_events (LIKE stored_events INCLUDING ALL);
CREATE TRIGGER bench_raw_no_change BEFORE UPDATE OR DELETE ON bench_raw_events
    FOR EACH ROW EXECUTE FUNCTION stored_events_reject_change();
"""
RAW_INSERT = """
INSERT INTO bench_raw_events (originator_id, originator_version, topic, state,
    notification_id, recorded_at, command_id, meta, prev_hash, hash, global_hash)
VALUES ($1, $2, $3, $4, $5, now(), $6, '{}', $7, $7, $7)
"""


def timed(block: range, step: Callable[[int], object]) -> list[float]:
    """Run step(i) for each i of the block; return each call's latency in seconds."""
    latencies = []
    for i in block:
        started = time.perf_counter()
        step(i)
        latencies.append(time.perf_counter() - started)
    return latencies


def bench(store_url: str, raw_url: str, n: int, streams: int, rounds: int):
    """Both paths in `rounds` alternating blocks (store, raw, store, …), so a machine whose
    load changes during the run slows both alike; returns (store, raw) latencies."""
    loop = asyncio.new_event_loop()
    conn = loop.run_until_complete(asyncpg.connect(raw_url))
    try:
        loop.run_until_complete(conn.execute(RAW_TABLE))
        insert = loop.run_until_complete(conn.prepare(RAW_INSERT))
        with EventStore.connect(EventRegistry(StrokeRecorded), store_url) as store:
            append = _store_step(store, streams)
            raw_ids = [uuid.uuid4() for _ in range(streams)]
            store_latencies: list[float] = []
            raw_latencies: list[float] = []
            for block in _blocks(n, rounds):
                store_latencies += timed(block, append)
                raw_latencies += loop.run_until_complete(_raw_block(insert, block, raw_ids))
            return store_latencies, raw_latencies
    finally:
        loop.run_until_complete(conn.close())
        loop.close()


def _blocks(n: int, rounds: int) -> list[range]:
    size = -(-n // rounds)
    return [range(start, min(start + size, n)) for start in range(0, n, size)]


def _store_step(store: EventStore, streams: int) -> Callable[[int], object]:
    """Single-event appends through EventStore.append (library recorder, trigger, chains)."""
    ids = [uuid.uuid4() for _ in range(streams)]
    event = StrokeRecorded(player="Mari", pocketed=(3,))

    def step(i: int) -> None:
        store.append(
            ids[i % streams],
            [event],
            expected_version=i // streams,
            command_id=uuid.uuid4(),
            meta={"recorder": "bench"},
        )

    return step


async def _raw_block(insert, block: range, ids: list[uuid.UUID]) -> list[float]:
    """Single-row INSERTs over one asyncpg connection into an identical table."""
    payload = msgspec.json.encode(StrokeRecorded(player="Mari", pocketed=(3,)))
    latencies = []
    for i in block:
        started = time.perf_counter()
        await insert.fetch(
            ids[i % len(ids)],
            i // len(ids) + 1,
            "bench.StrokeRecorded",
            payload,
            i + 1,
            uuid.uuid4(),
            bytes(32),
        )
        latencies.append(time.perf_counter() - started)
    return latencies


def summary(name: str, latencies: list[float]) -> float:
    """Print one line of figures; return events/s."""
    rate = len(latencies) / sum(latencies)
    cuts = statistics.quantiles(latencies, n=100)
    print(
        f"{name:<6} {rate:8.0f} events/s   p50 {cuts[49] * 1000:6.2f} ms"
        f"   p99 {cuts[98] * 1000:6.2f} ms"
    )
    return rate


def run(server_url: str, n: int, streams: int, rounds: int) -> None:
    """Make a fresh migrated database, bench both paths on it, drop it."""
    name = f"tableside_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')  # type: ignore[arg-type]
    url = with_dbname(server_url, name)
    try:
        owner_url, app_url = roles.setup(url)
        migrations.apply(owner_url, app_role=roles.APP_ROLE)
        with psycopg.connect(url) as conn:
            settings = conn.execute(
                "SELECT current_setting('synchronous_commit'), current_setting('fsync'), version()"
            ).fetchone()
        print(
            f"{n} single-event appends over {streams} streams in {rounds} alternating blocks;"
            f" synchronous_commit="
            f"{settings[0]}, fsync={settings[1]}\n{settings[2]}"
        )
        store_latencies, raw_latencies = bench(app_url, owner_url, n, streams, rounds)
        store = summary("store", store_latencies)
        raw = summary("raw", raw_latencies)
        print(f"ratio  store/raw = {store / raw:.2f}")
    finally:
        with psycopg.connect(server_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')  # type: ignore[arg-type]


def main() -> None:
    """Parse flags, find a server, run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20_000, help="events per path")
    parser.add_argument("--streams", type=int, default=100, help="streams written round-robin")
    parser.add_argument("--rounds", type=int, default=10, help="alternating blocks per path")
    args = parser.parse_args()
    if os.environ.get("DATABASE_URL"):
        run(os.environ["DATABASE_URL"], args.n, args.streams, args.rounds)
        return
    workdir = Path(tempfile.mkdtemp(prefix="tableside-bench-"))
    server = EmbeddedPostgres(workdir / "pgdata")
    try:
        run(server.start(), args.n, args.streams, args.rounds)
    finally:
        server.stop()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
