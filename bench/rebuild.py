"""Rebuild every read model from position 0; print events/s (issue 15 wants >= 50,000).

.venv/bin/python bench/rebuild.py --url postgresql://postgres@127.0.0.1:5432/postgres
    [--events 20000] [--seed 0] [--repeat 1]

Makes a throwaway database on that server (a superuser URL), stores simulated matches (one
append per match, on tables 1-8), times `tableside.plugins.korona.projections.rebuild` of the core
projections, and drops the database.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import random
import time
import uuid

import asyncpg
import psycopg
from tableside.db import migrations
from tableside.db.url import with_dbname
from tableside.disciplines.korona.simulate import play_match
from tableside.eventlog import EventStore
from tableside.match.events import MatchScheduled
from tableside.plugins.korona.projections.rebuild import rebuild
from tableside.server.registry import build_registry


def fill(url: str, total: int, seed: int) -> int:
    rng, count, i = random.Random(seed), 0, 0
    with EventStore.connect(build_registry(), url, 2) as store:
        while count < total:
            events = list(play_match(rng, ("EKML", "NOVUS08", "LV")[i % 3], i % 2 == 1))
            stored = [events[0], MatchScheduled(table=1 + i % 8), *events[1:]]
            store.append(uuid.uuid4(), stored, expected_version=0, command_id=uuid.uuid4())
            count, i = count + len(stored), i + 1
    return count


async def timed_copy(url: str) -> float:
    """The floor: the same rows read raw (COPY to a sink) and written raw (COPY into a temp
    table), no decoding, no folding — what a rebuild could not beat."""
    conn = await asyncpg.connect(url)
    try:
        start = time.perf_counter()
        sink = bytearray()

        async def keep(chunk: bytes) -> None:
            sink.extend(chunk)

        await conn.copy_from_query("SELECT * FROM stored_events", output=keep)
        await conn.execute("CREATE TEMP TABLE copied AS SELECT * FROM stored_events WITH NO DATA")
        await conn.copy_to_table("copied", source=io.BytesIO(sink))
        return time.perf_counter() - start
    finally:
        await conn.close()


async def timed_rebuild(url: str) -> tuple[int, float, float]:
    """(position, wall seconds, this process's CPU seconds) of one rebuild."""
    pool = await asyncpg.create_pool(url, min_size=1, max_size=1)
    reader = await asyncpg.connect(url)
    try:
        start, cpu = time.perf_counter(), time.process_time()
        position = await rebuild(pool, reader, build_registry(), None)
        return position, time.perf_counter() - start, time.process_time() - cpu
    finally:
        await reader.close()
        await pool.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="superuser URL of a PostgreSQL server")
    parser.add_argument("--events", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=1, help="rebuilds of the same log; best")
    args = parser.parse_args()
    name = f"tableside_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(args.url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')  # type: ignore[arg-type]
    url = with_dbname(args.url, name)
    try:
        migrations.apply(url)
        n = fill(url, args.events, args.seed)
        floor = asyncio.run(timed_copy(url))
        runs = [asyncio.run(timed_rebuild(url)) for _ in range(args.repeat)]
        position, seconds, cpu = min(runs, key=lambda run: run[1])
        assert position == n, (position, n)
        print(f"rebuilt live, protocol, tables, history: {n:,} events in {seconds:.2f} s")
        print(
            f"  of which Python CPU {cpu:.2f} s ({cpu / seconds:.0%}: rest waits for the database)"
        )
        print(f"{n / seconds:,.0f} events/s   target >= 50,000 events/s (issue 15)")
        print(f"baseline, raw COPY out and back in: {n / floor:,.0f} events/s")
        print(f"ratio rebuild / raw COPY: {floor / seconds:.2f}x")
    finally:
        with psycopg.connect(args.url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
