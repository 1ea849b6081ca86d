"""The fan-out engine between federation nodes (issue 51, decision 0195), measured three ways
in one run on one machine: a publisher (the node that kept a venue's push) and `--nodes`
subscribers (every relay node), `--n` strokes at `--rate` per second, then a burst of `--n`.

- **pg**: PostgreSQL LISTEN/NOTIFY, as the relay does it: the keeping transaction inserts the
  row and NOTIFYs a wake-up (venue, head); each node, woken, reads the new rows from the table
  (the durable log the federation already keeps; resume = a SELECT from a position).
- **redis**: Redis Streams: XADD of the event (~600 bytes) to a stream per venue, each node
  an XREAD BLOCK on it (resume = XREAD from an id).
- **nats**: NATS JetStream: a publish of the event to a stream, each node an ordered push
  consumer (resume = a consumer from a sequence).

Each engine's server is started here (an embedded PostgreSQL, `redis-server`, `nats-server
-js`, each in a temp dir on a free loopback port) and stopped after; an engine whose server
or client is missing is reported `not measured`, never guessed (the two clients are not the
project's dependencies: `.venv/bin/pip install redis nats-py` to measure them). Prints a
line per engine: `engine NAME: stroke -> every node p50 N ms p99 N ms, burst N/s` and,
against pg in the same run, the ratio of p99 and of burst throughput.

    .venv/bin/python bench/relay_engines.py --nodes 4 --n 2000 --rate 200
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import asyncpg
import psycopg

sys.path.insert(0, str(Path(__file__).parent))
from live_audience import free_port, quantiles

EVENT = b'{"kind":"event","payload":' + b'"' + b"x" * 560 + b'"}'


async def _wait_port(port: int, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            _, w = await asyncio.open_connection("127.0.0.1", port)
            w.close()
            return
        except OSError:
            await asyncio.sleep(0.05)
    raise TimeoutError(f"port {port} did not open")


class Timing:
    """When each stroke was sent, and when the last node had it."""

    def __init__(self, n: int, nodes: int) -> None:
        self.sent: dict[int, float] = {}
        self.got: dict[int, int] = {}
        self.done: dict[int, float] = {}
        self.nodes, self.n = nodes, n
        self.all = asyncio.Event()

    def received(self, seq: int) -> None:
        self.got[seq] = self.got.get(seq, 0) + 1
        if self.got[seq] == self.nodes:
            self.done[seq] = time.perf_counter()
            if len(self.done) >= self.n:
                self.all.set()

    def delays(self) -> list[float]:
        return [self.done[k] - self.sent[k] for k in self.done]


async def _drive(publish, timing: Timing, rate: float, burst: bool) -> float:
    start = time.perf_counter()
    for seq in range(1, timing.n + 1):
        if not burst:
            await asyncio.sleep(max(0.0, start + seq / rate - time.perf_counter()))
        timing.sent[seq] = time.perf_counter()
        await publish(seq)
    await asyncio.wait_for(timing.all.wait(), 120)
    return timing.n / (time.perf_counter() - start)


async def pg_case(url: str, nodes: int, n: int, rate: float, burst: bool) -> tuple[list, float]:
    pub = await asyncpg.connect(url)
    await pub.execute(
        "DROP TABLE IF EXISTS kept; CREATE TABLE kept (seq bigint PRIMARY KEY, e bytea)"
    )
    timing = Timing(n, nodes)
    listeners = []
    for _ in range(nodes):
        conn, reader = await asyncpg.connect(url), await asyncpg.connect(url)
        state = {"read": 0, "woken": asyncio.Event()}

        async def follow(reader=reader, state=state) -> None:
            while True:
                await state["woken"].wait()
                state["woken"].clear()
                rows = await reader.fetch(
                    "SELECT seq, e FROM kept WHERE seq > $1 ORDER BY seq", state["read"]
                )
                for r in rows:
                    timing.received(r["seq"])
                if rows:
                    state["read"] = rows[-1]["seq"]

        await conn.add_listener("kept", lambda *_a, state=state: state["woken"].set())
        listeners.append((conn, reader, asyncio.create_task(follow())))

    async def publish(seq: int) -> None:
        async with pub.transaction():
            await pub.execute("INSERT INTO kept VALUES ($1, $2)", seq, EVENT)
            await pub.execute("SELECT pg_notify('kept', $1)", str(seq))

    rate_seen = await _drive(publish, timing, rate, burst)
    for conn, reader, task in listeners:
        task.cancel()
        await conn.close()
        await reader.close()
    await pub.close()
    return timing.delays(), rate_seen


async def redis_case(port: int, nodes: int, n: int, rate: float, burst: bool):
    import redis.asyncio as aioredis

    pub = aioredis.Redis(port=port)
    await pub.delete("venue")
    timing = Timing(n, nodes)
    tasks = []
    for _ in range(nodes):
        sub = aioredis.Redis(port=port)

        async def follow(sub=sub) -> None:
            last = "0-0"
            while True:
                found = await sub.xread({"venue": last}, block=1000, count=500)
                for _, entries in found:
                    for entry_id, fields in entries:
                        timing.received(int(fields[b"seq"]))
                        last = entry_id

        tasks.append(asyncio.create_task(follow()))

    async def publish(seq: int) -> None:
        await pub.xadd("venue", {"seq": seq, "e": EVENT})

    rate_seen = await _drive(publish, timing, rate, burst)
    for task in tasks:
        task.cancel()
    await pub.aclose()
    return timing.delays(), rate_seen


async def nats_case(port: int, nodes: int, n: int, rate: float, burst: bool, name: str):
    import nats

    nc = await nats.connect(f"nats://127.0.0.1:{port}")
    js = nc.jetstream()
    await js.add_stream(name=name, subjects=[f"{name}.>"])
    timing = Timing(n, nodes)
    subs = []
    for _ in range(nodes):
        sc = await nats.connect(f"nats://127.0.0.1:{port}")

        async def got(msg) -> None:
            timing.received(int(msg.headers["seq"]))

        subs.append(
            (sc, await sc.jetstream().subscribe(f"{name}.v", cb=got, ordered_consumer=True))
        )

    async def publish(seq: int) -> None:
        await js.publish(f"{name}.v", EVENT, headers={"seq": str(seq)})

    rate_seen = await _drive(publish, timing, rate, burst)
    for sc, _ in subs:
        await sc.close()
    await nc.close()
    return timing.delays(), rate_seen


def _server(cmd: list[str], workdir: Path) -> subprocess.Popen:
    return subprocess.Popen(cmd, cwd=workdir, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


async def main(args: argparse.Namespace) -> None:
    from tableside.db.embedded import EmbeddedPostgres
    from tableside.db.url import with_dbname

    workdir = Path(tempfile.mkdtemp(prefix="tableside-engines-"))
    results: dict[str, tuple[float, float, float] | str] = {}
    pg = EmbeddedPostgres(workdir / "pgdata")
    procs: list[subprocess.Popen] = []
    try:
        url = pg.start()
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE DATABASE engines")
        url = with_dbname(url, "engines")
        cases = {"pg": lambda burst: pg_case(url, args.nodes, args.n, args.rate, burst)}
        redis_bin = shutil.which("redis-server")
        if redis_bin:
            rport = free_port()
            procs.append(
                _server(
                    [
                        redis_bin,
                        "--port",
                        str(rport),
                        "--bind",
                        "127.0.0.1",
                        "--save",
                        "",
                        "--appendonly",
                        "no",
                    ],
                    workdir,
                )
            )
            await _wait_port(rport)
            cases["redis"] = lambda burst: redis_case(rport, args.nodes, args.n, args.rate, burst)
        else:
            results["redis"] = "not measured: no redis-server"
        nats_bin = shutil.which("nats-server") or (
            "/usr/sbin/nats-server" if os.path.exists("/usr/sbin/nats-server") else None
        )
        if nats_bin:
            nport = free_port()
            procs.append(
                _server(
                    [
                        nats_bin,
                        "-a",
                        "127.0.0.1",
                        "-p",
                        str(nport),
                        "-js",
                        "-sd",
                        str(workdir / "js"),
                    ],
                    workdir,
                )
            )
            await _wait_port(nport)
            cases["nats"] = lambda burst: nats_case(
                nport, args.nodes, args.n, args.rate, burst, f"V{int(burst)}"
            )
        else:
            results["nats"] = "not measured: no nats-server"
        for name, case in cases.items():
            try:
                delays, _ = await case(False)
                _, burst = await case(True)
            except ImportError as exc:
                results[name] = f"not measured: {exc}"
                continue
            p50, p99 = quantiles(delays)
            results[name] = (p50, p99, burst)
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(10)
        pg.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    base = results.get("pg")
    for name, found in results.items():
        if isinstance(found, str):
            print(f"engine {name}: {found}")
            continue
        p50, p99, burst = found
        ratio = ""
        if isinstance(base, tuple) and name != "pg":
            ratio = f" (p99 {p99 / base[1]:.2f}x pg, burst {burst / base[2]:.2f}x pg)"
        print(
            f"engine {name}: stroke -> every one of {args.nodes} nodes p50 {p50:.1f} ms"
            f" p99 {p99:.1f} ms, burst {burst:.0f}/s{ratio}"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=4)
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--rate", type=float, default=200.0)
    asyncio.run(main(parser.parse_args()))
