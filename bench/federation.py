"""The federation (issue 49): N venues × M events pushed at once into one federation, against
a bare COPY of the same rows into the same PostgreSQL, same run; then a stroke's time from
the venue (the judge's reply) to the federation (the event kept there), p50/p99.

    .venv/bin/python bench/federation.py [--venues 4] [--events 5000] [--strokes 200]
        [--uplink-seconds 0.5]

Throughput: each venue's store is made up front (both chains linked as a venue's trigger
links them, a checkpoint signed by the venue's key every batch) and encoded as its uplink
encodes batches (JSONL, `uplink/pusher.batch`'s shape), so what is timed is the
federation's side: HTTP, parse, verify every link and checkpoint, keep (COPY), sign the
acknowledgement. The bare baseline COPYs the same rows in the same batches from N
connections into a table shaped like `venue_events` (its keys, no triggers, no checks).

Latency: a real venue (`tableside serve` with `--federation`) and its uplink thread; a judge
posts strokes one at a time; each is timed from its reply to the federation's kept head
reaching its position. The database is DATABASE_URL (a superuser's) or a throwaway embedded
PostgreSQL. Prints `federation: … ratio X.XXx … p99 N ms`.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path

import asyncpg
import httpx
import msgspec
import psycopg
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from live import Judge, database, serve_env, start, stop
from live_audience import free_port, quantiles
from tableside.db import roles
from tableside.db.url import with_dbname, with_user
from tableside.eventlog import checkpoints
from tableside.eventlog.chain import GENESIS, linked
from tableside.eventlog.checkpoints import public_hex
from tableside.eventlog.jsonl import FORMAT, Header, export_lines
from tableside.eventlog.records import RawRecord
from tableside.federation.database import migrate
from tableside.federation.keeping import EVENT_COLUMNS, event_row

FED_ADMIN = ("benchfed", "bench-federation-1")
T0 = datetime(2026, 11, 28, 10, 0, tzinfo=UTC)
BARE = (
    "CREATE TABLE IF NOT EXISTS bench_bare_events"
    " (LIKE venue_events INCLUDING DEFAULTS INCLUDING INDEXES)"
)


def venue_store(m: int, streams: int = 40) -> list[RawRecord]:
    """`m` stroke-sized events over `streams` matches, chained as a venue's store."""
    ids = [uuid.uuid4() for _ in range(streams)]
    versions = dict.fromkeys(ids, 0)
    meta = '{"device_id":"tab-1","recorder":"table-3-judge","role":"table_judge"}'
    drafts = []
    for position in range(1, m + 1):
        stream = ids[position % streams]
        versions[stream] += 1
        payload = b'{"type":"StrokeRecorded","player":"a1","pocketed":[3,7],"n":%d}' % position
        at = T0 + timedelta(milliseconds=position)
        drafts.append(
            RawRecord(
                stream,
                versions[stream],
                position,
                "StrokeRecorded",
                payload,
                at,
                uuid.uuid4(),
                meta,
                b"",
                b"",
            )
        )
    return linked(drafts)


def batches(records: list[RawRecord], key: Ed25519PrivateKey, size: int) -> list[tuple[int, bytes]]:
    """(after, body) of each push, as the uplink makes them: a checkpoint per batch."""
    out, marks = [], []
    for start_at in range(0, len(records), size):
        part = records[start_at : start_at + size]
        after = part[0].position - 1
        anchor = records[after - 1].global_hash if after else GENESIS
        mark = checkpoints.sign(key, part[-1].position, part[-1].global_hash)
        marks.append(mark)
        header = Header(
            FORMAT, None, len(part), part[-1].hash.hex(), mark, anchor.hex(), 0, (mark,)
        )
        out.append((after, msgspec.json.encode(header) + b"\n" + b"".join(export_lines(part)[1:])))
    return out


def federation_up(url: str, folder: Path):
    port = free_port()
    env = {
        "TABLESIDE_FEDERATION_DATABASE_URL": with_user(url, roles.APP_ROLE),
        "TABLESIDE_FEDERATION_KEY_FILE": str(folder / "federation.pem"),
        "TABLESIDE_FEDERATION_ADMIN_USER": FED_ADMIN[0],
        "TABLESIDE_FEDERATION_ADMIN_PASSWORD": FED_ADMIN[1],
    }
    cmd = [
        sys.executable,
        "-m",
        "uvicorn",
        "--factory",
        "tableside.federation.asgi:from_env",
        "--port",
        str(port),
        "--log-level",
        "warning",
    ]
    return start(cmd, env, port), f"http://127.0.0.1:{port}"


def enrol(base: str, keys: list[Ed25519PrivateKey]) -> list[tuple[str, str]]:
    """(venue_id, credential) of each key, enrolled with a code of the admin's."""
    token = httpx.post(
        f"{base}/api/federation/login",
        json=dict(zip(("username", "password"), FED_ADMIN, strict=True)),
    ).json()["token"]
    made = []
    for i, key in enumerate(keys):
        code = httpx.post(
            f"{base}/api/federation/codes",
            json={"venue_name": f"Venue {i}"},
            headers={"Authorization": f"Bearer {token}"},
        ).json()["code"]
        r = httpx.post(
            f"{base}/api/federation/enrol", json={"code": code, "public_key": public_hex(key)}
        )
        made.append((r.json()["venue_id"], r.json()["credential"]))
    return made


def push_all(base: str, credential: str, pushes: list[tuple[int, bytes]], head: int) -> int:
    kept = 0
    with httpx.Client(base_url=base, timeout=120) as http:
        for after, body in pushes:
            r = http.post(
                "/api/federation/push",
                params={"after": after, "head": head},
                content=body,
                headers={
                    "Authorization": f"Bearer {credential}",
                    "Content-Type": "application/jsonl",
                },
            )
            r.raise_for_status()
            kept += r.json()["kept"]
    return kept


async def bare_copy(url: str, stores: list[list[RawRecord]], size: int) -> float:
    """The same rows COPYed in the same batches from one connection per venue; seconds."""
    conns = [await asyncpg.connect(url) for _ in stores]
    try:
        await conns[0].execute(BARE)
        venues = [uuid.uuid4() for _ in stores]

        async def one(conn, venue, records) -> None:
            for at in range(0, len(records), size):
                rows = [event_row(venue, r) for r in records[at : at + size]]
                async with conn.transaction():
                    await conn.copy_records_to_table(
                        "bench_bare_events", records=rows, columns=EVENT_COLUMNS
                    )

        started = time.perf_counter()
        await asyncio.gather(*(one(c, v, s) for c, v, s in zip(conns, venues, stores, strict=True)))
        return time.perf_counter() - started
    finally:
        for conn in conns:
            await conn.close()


def throughput(cfg, fed_url: str, base: str) -> tuple[float, float]:
    keys = [Ed25519PrivateKey.generate() for _ in range(cfg.venues)]
    stores = [venue_store(cfg.events) for _ in keys]
    pushes = [batches(s, k, cfg.batch) for s, k in zip(stores, keys, strict=True)]
    enrolled = enrol(base, keys)
    owner = with_user(fed_url, roles.OWNER_ROLE)
    bare = asyncio.run(bare_copy(owner, stores, cfg.batch))  # before and after: a load that
    started = time.perf_counter()  # changes during the run weighs on both alike
    with ThreadPoolExecutor(cfg.venues) as pool:
        kept = sum(
            pool.map(
                lambda v: push_all(base, v[0][1], v[1], cfg.events),
                zip(enrolled, pushes, strict=True),
            )
        )
    pushed = time.perf_counter() - started
    assert kept == cfg.venues * cfg.events, kept
    bare = (bare + asyncio.run(bare_copy(owner, stores, cfg.batch))) / 2
    total = cfg.venues * cfg.events
    return total / pushed, total / bare


async def stroke_latency(cfg, fed_url: str, base: str, venue_url: str, folder: Path) -> list[float]:
    """Each stroke from the judge's reply to the federation holding its position (s)."""
    code = enrol_code(base)
    port = free_port()
    env = {
        **serve_env(venue_url, 1),
        "TABLESIDE_FEDERATION_URL": base,
        "TABLESIDE_FEDERATION_CODE": code,
        "TABLESIDE_UPLINK_DIR": str(folder / "uplink"),
        "TABLESIDE_UPLINK_SECONDS": str(cfg.uplink_seconds),
        "TABLESIDE_KEY_FILE": str(folder / "venue.pem"),
        "TABLESIDE_CHECKPOINT_LOG": "off",
        "PORT": str(port),
    }
    venue = start(
        [str(Path(sys.executable).with_name("tableside")), "serve", "--port", str(port)], env, port
    )
    fed = await asyncpg.connect(fed_url)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            judge = Judge(http)
            await judge.setup()
            venue_id = await _enrolled(fed)
            latencies = []
            for _ in range(cfg.strokes):
                await judge.stroke(0)
                replied = time.perf_counter()
                while (await fed.fetchval(_KEPT, venue_id) or 0) < judge.position:
                    await asyncio.sleep(0.002)
                latencies.append(time.perf_counter() - replied)
                await asyncio.sleep(0.02)
            return latencies
    finally:
        await fed.close()
        stop(venue)


_KEPT = "SELECT max(position) FROM venue_events WHERE venue_id = $1"


async def _enrolled(fed: asyncpg.Connection) -> uuid.UUID:
    """The venue the latency run enrolled (the newest), once its uplink enrolled it."""
    for _ in range(3000):
        found = await fed.fetchval("SELECT venue_id FROM venues WHERE name = 'Latency venue'")
        if found is not None:
            return found
        await asyncio.sleep(0.02)
    raise RuntimeError("the venue did not enrol")


def enrol_code(base: str) -> str:
    token = httpx.post(
        f"{base}/api/federation/login",
        json=dict(zip(("username", "password"), FED_ADMIN, strict=True)),
    ).json()["token"]
    return httpx.post(
        f"{base}/api/federation/codes",
        json={"venue_name": "Latency venue"},
        headers={"Authorization": f"Bearer {token}"},
    ).json()["code"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--venues", type=int, default=4)
    parser.add_argument("--events", type=int, default=5000, help="events per venue")
    parser.add_argument("--batch", type=int, default=500, help="events per push (the uplink's)")
    parser.add_argument("--strokes", type=int, default=200)
    parser.add_argument("--uplink-seconds", type=float, default=0.5, help="the uplink's round")
    cfg = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="tableside-bench-federation-"))
    with database() as server_db:
        fed_url = with_dbname(server_db, "bench_federation")
        venue_url = with_dbname(server_db, "bench_venue")
        with psycopg.connect(server_db, autocommit=True) as conn:
            conn.execute("DROP DATABASE IF EXISTS bench_federation WITH (FORCE)")
            conn.execute("DROP DATABASE IF EXISTS bench_venue WITH (FORCE)")
            conn.execute("CREATE DATABASE bench_federation")
            conn.execute("CREATE DATABASE bench_venue")
        owner, _ = roles.setup(fed_url)
        migrate(owner, roles.APP_ROLE)
        proc, base = federation_up(fed_url, folder)
        try:
            kept_rate, bare_rate = throughput(cfg, fed_url, base)
            lat = asyncio.run(stroke_latency(cfg, fed_url, base, venue_url, folder))
        finally:
            stop(proc)
        p50, p99 = quantiles(lat)
        print(
            f"federation: {cfg.venues} venues × {cfg.events} events pushed at once:"
            f" {kept_rate:,.0f} events/s verified and kept, bare COPY {bare_rate:,.0f} events/s,"
            f" ratio {kept_rate / bare_rate:.2f}x; a stroke venue → federation"
            f" (uplink round {cfg.uplink_seconds:g} s, {len(lat)} strokes):"
            f" p50 {p50:.0f} ms, p99 {p99:.0f} ms (mean {statistics.mean(lat) * 1000:.0f} ms)"
        )


if __name__ == "__main__":
    main()
