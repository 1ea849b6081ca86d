"""Live-feed fan-out: N spectators on one match while a judge posts strokes; then a bare
`websockets` broadcast server to the same N as the baseline. Prints commit-to-receive p50/p99,
server memory per connection, and the ratio to the baseline.

    .venv/bin/python bench/live.py [--n 1000] [--strokes 200] [--rate 10]

Traffic stays on 127.0.0.1; the database is DATABASE_URL or a throwaway embedded PostgreSQL.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

import httpx
import msgspec
import psycopg
import websockets
from tableside.db import migrations
from tableside.db.embedded import EmbeddedPostgres
from tableside.db.url import with_dbname

ADMIN = ("bench", "bench-password")
PAD = "x" * 900  # baseline messages are about as large as a delta with its live board


def rss_kib(pid: int) -> int:
    """Resident memory of a process in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def database():
    """DATABASE_URL, or a fresh database on a throwaway embedded server."""
    if os.environ.get("DATABASE_URL"):
        yield os.environ["DATABASE_URL"]
        return
    workdir = Path(tempfile.mkdtemp(prefix="tableside-bench-"))
    server = EmbeddedPostgres(workdir / "pgdata")
    try:
        url = server.start()
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE DATABASE bench_live")
        url = with_dbname(url, "bench_live")
        migrations.apply(url)
        yield url
    finally:
        server.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def start(cmd: list[str], env: dict[str, str], port: int) -> subprocess.Popen:
    """Start a server and wait until its port answers."""
    proc = subprocess.Popen(cmd, env={**os.environ, **env})
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/health", timeout=1)
            return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError(f"{cmd[0]} did not start")


class Probe(msgspec.Struct):
    """The few fields a spectator needs to time a message (the rest is skipped unparsed)."""

    kind: str = ""
    position: int = 0
    recorded_at: str = ""
    sent: float = 0.0


_probe = msgspec.json.Decoder(Probe)


class Audience:
    """N websocket readers recording each event's latency and the last position they saw."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.last: list[int] = []
        self.tasks: list[asyncio.Task] = []
        self.after = 0  # events at or before this position were stored before we connected

    async def connect(self, url: str, n: int, sent_at) -> None:
        """Open n sockets in waves of 100 and start reading."""
        sockets = []
        for i in range(0, n, 100):
            wave = [websockets.connect(url, open_timeout=60, compression=None)
                    for _ in range(min(100, n - i))]
            sockets += await asyncio.gather(*wave)
        self.last = [0] * n
        self.tasks = [asyncio.create_task(self._read(i, ws, sent_at))
                      for i, ws in enumerate(sockets)]

    async def _read(self, i: int, ws, sent_at) -> None:
        async for raw in ws:
            message = _probe.decode(raw)
            if message.kind == "event" and message.position > self.after:
                self.latencies.append(time.time() - sent_at(message))
                self.last[i] = message.position

    async def wait_for(self, position: int, timeout: float = 60) -> None:
        """Until every reader has seen `position`; then close them all."""
        deadline = time.monotonic() + timeout
        while min(self.last) < position and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


def summary(name: str, latencies: list[float], kib_per_conn: float) -> dict:
    """p50/p99 in ms and memory per connection."""
    q = statistics.quantiles(latencies, n=100)
    result = {"p50": q[49] * 1000, "p99": q[98] * 1000, "kib": kib_per_conn}
    print(f"{name:>10}: {len(latencies):>7} deliveries  p50 {result['p50']:7.1f} ms  "
          f"p99 {result['p99']:7.1f} ms  memory {kib_per_conn:6.1f} KiB/connection")
    return result


async def paced(count: int, rate: float, step) -> None:
    """Call `step(k)` count times at `rate` per second."""
    t0 = time.monotonic()
    for k in range(count):
        await step(k)
        await asyncio.sleep(max(0.0, t0 + (k + 1) / rate - time.monotonic()))


class Judge:
    """Creates a match and posts always-legal strokes (nothing pocketed: the turn passes)."""

    def __init__(self, http: httpx.AsyncClient) -> None:
        self.http, self.turn, self.version, self.position = http, "", 0, 0

    async def setup(self) -> str:
        r = await self.http.post("/api/login", json={"username": ADMIN[0], "password": ADMIN[1]})
        self.http.headers["Authorization"] = f"Bearer {r.json()['token']}"
        r = await self.http.post("/api/matches", json={
            "command_id": str(uuid.uuid4()), "table": 1, "side_a": ["a"], "side_b": ["b"]})
        self.match_id = r.json()["match_id"]
        self._follow(r.json())
        await self.post({"type": "AssignOpeningShot", "method": "lot", "lot_winner": "A"})
        return self.match_id

    async def post(self, command: dict) -> None:
        r = await self.http.post(f"/api/matches/{self.match_id}/commands", json={
            "command_id": str(uuid.uuid4()), "expected_version": self.version, "command": command})
        r.raise_for_status()
        self._follow(r.json())

    async def stroke(self, _: int) -> None:
        await self.post({"type": "RecordStroke", "player": self.turn, "facts": {}})

    def _follow(self, body: dict) -> None:
        self.version, self.position = body["last_version"], body["positions"][-1]
        for e in body["events"]:
            self.turn = e["event"].get("opener") or e["event"].get("to") or self.turn


def _recorded_at(message: dict) -> float:
    from datetime import datetime

    return datetime.fromisoformat(message.recorded_at).timestamp()


async def run_tableside(db_url: str, n: int, strokes: int, rate: float) -> dict:
    """Our server: N spectators on one match, a judge posting strokes."""
    port = free_port()
    env = {"DATABASE_URL": db_url, "TABLESIDE_ADMIN_USER": ADMIN[0],
           "TABLESIDE_ADMIN_PASSWORD": ADMIN[1], "TABLESIDE_COMMAND_RATE": "100000",
           "TABLESIDE_COMMAND_BURST": "100000", "TABLESIDE_DB_POOL_SIZE": "10"}
    proc = start([sys.executable, "-m", "uvicorn", "--factory", "tableside.app.asgi:from_env",
                  "--port", str(port), "--log-level", "warning"], env, port)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            judge = Judge(http)
            match_id = await judge.setup()
            before, audience = rss_kib(proc.pid), Audience()
            audience.after = judge.position
            await audience.connect(f"ws://127.0.0.1:{port}/live?match={match_id}", n, _recorded_at)
            per_conn = (rss_kib(proc.pid) - before) / n
            await paced(strokes, rate, judge.stroke)
            await audience.wait_for(judge.position)
        result = summary("tableside", audience.latencies, per_conn)
        return {**result, "events": round(len(audience.latencies) / n / strokes)}
    finally:
        proc.terminate()
        proc.wait(10)


async def run_baseline(n: int, messages: int, rate: float) -> dict:
    """A bare websockets broadcast server: the floor for the same N and message count."""
    port = free_port()
    proc = start([sys.executable, __file__, "--baseline-server", str(port)], {}, port)
    try:
        before, audience = rss_kib(proc.pid), Audience()
        await audience.connect(f"ws://127.0.0.1:{port}/", n, lambda m: m.sent)
        per_conn = (rss_kib(proc.pid) - before) / n
        async with websockets.connect(f"ws://127.0.0.1:{port}/publish") as publisher:
            async def send(k: int) -> None:
                await publisher.send(json.dumps({"kind": "event", "position": k + 1,
                                                 "sent": time.time(), "pad": PAD}))

            await paced(messages, rate, send)
            await audience.wait_for(messages)
        return summary("baseline", audience.latencies, per_conn)
    finally:
        proc.terminate()
        proc.wait(10)


async def baseline_server(port: int) -> None:
    """Broadcast every message from /publish to every other connection."""
    from websockets.asyncio.server import broadcast, serve

    clients: set = set()

    async def handler(ws) -> None:
        if ws.request.path == "/publish":
            async for message in ws:
                broadcast(clients, message)
            return
        clients.add(ws)
        try:
            await ws.wait_closed()
        finally:
            clients.discard(ws)

    def health(connection, request):
        return connection.respond(200, "ok\n") if request.path == "/health" else None

    async with serve(handler, "127.0.0.1", port, process_request=health):
        await asyncio.Future()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000, help="spectators (default 1000)")
    parser.add_argument("--strokes", type=int, default=200, help="strokes to post (default 200)")
    parser.add_argument("--rate", type=float, default=10.0, help="strokes per second (default 10)")
    parser.add_argument("--baseline-server", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.baseline_server:
        asyncio.run(baseline_server(args.baseline_server))
        return
    with database() as db_url:
        ours = asyncio.run(run_tableside(db_url, args.n, args.strokes, args.rate))
    per_stroke = max(1, ours["events"])  # events per stroke: the baseline sends as many
    base = asyncio.run(run_baseline(args.n, args.strokes * per_stroke, args.rate * per_stroke))
    print(f"     ratio: p50 {ours['p50'] / base['p50']:.1f}x  p99 {ours['p99'] / base['p99']:.1f}x"
          f"  memory {ours['kib'] / max(base['kib'], 0.1):.1f}x   (tableside / bare websockets)")
    print(f"    target: p99 <= 250 ms at 1,000 spectators -> "
          f"{'met' if ours['p99'] <= 250 else 'NOT met'} ({args.n} spectators)")


if __name__ == "__main__":
    main()
