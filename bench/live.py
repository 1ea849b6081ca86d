"""Live feed at scale: N spectators over several client processes on one match while a judge
posts strokes, against `tableside serve --workers W` and a bare `websockets` broadcast app on
W processes, compression off and offered (as browsers do). Prints spread p50/p99 (commit to
receive), the judge's reply p50/p99/max while the audience is connected, connect time, server
CPU per delivery, memory per connection, the sockets connected / refused / dropped / lost
(counted, never a crash), the longest pause a client saw (the slowest ping round trip on a
few extra sockets), the pool-exhausted lines of the server's log, and the ratios to the bare
app. Every spectator of a case connects at once, as a crowd does.

    .venv/bin/python bench/live.py [--n 1000,5000] [--rate 5,1] [--seconds 20] [--workers 2]
        [--compression off,on] [--tableside PATH]   # PATH: another checkout's tableside

The server is started as users start it (`tableside serve`); the database is DATABASE_URL
or a throwaway embedded PostgreSQL.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

import httpx
import psycopg
import websockets
from live_audience import Audience, cpu_seconds, free_port, paced, quantiles, rss_kib

ADMIN = ("bench", "bench-password")
TABLES = itertools.count(1)
HERE = Path(__file__).parent


@contextmanager
def database():
    """DATABASE_URL, or a fresh database on a throwaway embedded server."""
    if os.environ.get("DATABASE_URL"):
        yield os.environ["DATABASE_URL"]
        return
    from tableside.db.embedded import EmbeddedPostgres
    from tableside.db.url import with_dbname

    workdir = Path(tempfile.mkdtemp(prefix="tableside-bench-"))
    server = EmbeddedPostgres(workdir / "pgdata")
    try:
        url = server.start()
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE DATABASE bench_live")
        yield with_dbname(url, "bench_live")
    finally:
        server.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def start(cmd: list[str], env: dict[str, str], port: int, log: Path | None = None):
    """Start a server (its log into `log`, else inherited) and wait until /health answers."""
    with open(log or os.devnull, "ab") as out:  # the child keeps its own descriptor
        proc = subprocess.Popen(
            cmd, env={**os.environ, **env}, stdout=subprocess.DEVNULL, stderr=out if log else None
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                time.sleep(1)  # every worker up
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError(f"{cmd[0]} did not start")


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()


def serve_env(db_url: str, workers: int) -> dict[str, str]:
    """`tableside serve` for a bench: its admin, no command rate limit, every client local."""
    return {
        "DATABASE_URL": db_url,
        "TABLESIDE_ADMIN_USER": ADMIN[0],
        "TABLESIDE_ADMIN_PASSWORD": ADMIN[1],
        "TABLESIDE_COMMAND_RATE": "100000",
        "TABLESIDE_COMMAND_BURST": "100000",
        "TABLESIDE_DB_POOL_SIZE": "10",
        "TABLESIDE_LIVE_PER_CLIENT": "100000",  # every spectator comes from 127.0.0.1
        "TABLESIDE_WORKERS": str(workers),
    }


class Judge:
    """Creates a match and posts always-legal strokes (nothing pocketed: the turn passes)."""

    def __init__(self, http: httpx.AsyncClient) -> None:
        self.http, self.turn, self.version, self.position = http, "", 0, 0
        self.errors: list[str] = []  # the judge's failed posts (the bench goes on)

    async def setup(self) -> str:
        r = await self.http.post("/api/login", json={"username": ADMIN[0], "password": ADMIN[1]})
        self.http.headers["Authorization"] = f"Bearer {r.json()['token']}"
        table = next(TABLES)  # the hall holds one match per table: each case its own
        body = {"command_id": str(uuid.uuid4()), "table": table, "side_a": ["a"], "side_b": ["b"]}
        r = await self.http.post("/api/matches", json=body)
        self.match_id = r.json()["match_id"]
        self._follow(r.json())
        await self.post({"type": "AssignOpeningShot", "method": "lot", "lot_winner": "A"})
        return self.match_id

    async def post(self, command: dict, tries: int = 1) -> bool:
        """Post a command, sent again (the same command_id: answered once) on an error up to
        `tries` times; False when it never went through (counted in `errors`)."""
        body = {
            "command_id": str(uuid.uuid4()),
            "expected_version": self.version,
            "command": command,
        }
        for attempt in range(tries):
            try:
                r = await self.http.post(f"/api/matches/{self.match_id}/commands", json=body)
                r.raise_for_status()
            except httpx.HTTPError as exc:
                self.errors.append(str(exc).splitlines()[0][:80])
                await asyncio.sleep(0.2 * 2**attempt)
                continue
            self._follow(r.json())
            return True
        return False

    async def stroke(self, _: int) -> None:
        await self.post({"type": "RecordStroke", "player": self.turn, "facts": {}}, tries=4)

    def _follow(self, body: dict) -> None:
        self.version, self.position = body["last_version"], body["positions"][-1]
        for e in body["events"]:
            self.turn = e["event"].get("opener") or e["event"].get("to") or self.turn


class Stalls:
    """Ping round trips on a few extra sockets while a case runs, one after another: a server
    whose event loop pauses (a garbage-collection pass, a long fan-out slice) answers late, so
    the slowest pong is the longest pause a client saw. Sockets spread over the workers."""

    def __init__(self, url: str, sockets: int = 8) -> None:
        self.url, self.n, self.rtts = url, sockets, []

    async def __aenter__(self) -> Stalls:
        self.socks = [
            await websockets.connect(self.url, compression=None, max_queue=None)
            for _ in range(self.n)
        ]
        self.tasks = [asyncio.create_task(self._drain(ws)) for ws in self.socks]
        self.tasks.append(asyncio.create_task(self._ping()))
        return self

    async def __aexit__(self, *_) -> None:
        for task in self.tasks:
            task.cancel()
        for ws in self.socks:
            await ws.close()

    @staticmethod
    async def _drain(ws) -> None:
        async for _ in ws:
            pass

    async def _ping(self) -> None:
        while True:
            for ws in self.socks:
                t0 = time.monotonic()
                await asyncio.wait_for(await ws.ping(), 30)
                self.rtts.append(time.monotonic() - t0)
            await asyncio.sleep(0.05)


def clients_for(n: int) -> int:
    return max(2, min(4, n // 1000))


def report(name: str, n: int, lat, counts, ready, kib, cpu, stalls, replies=None) -> dict:
    """One line per case; `counts` are (connected, refused, dropped, lost) sockets."""
    p50, p99 = quantiles(lat)
    us = cpu * 1e6 / max(1, len(lat))
    pause = max(stalls.rtts, default=0) * 1000
    connected, refused, dropped, lost = counts
    line = (
        f"  {name:<22} {n:>6}  spread p50 {p50:7.1f} p99 {p99:7.1f} ms  "
        f"connect {ready:5.1f} s  {kib:5.1f} KiB/conn  {us:5.1f} µs CPU/delivery  "
        f"connected {connected} refused {refused} dropped {dropped} lost {lost}"
        f"  longest pause {pause:.0f} ms"
    )
    result = {"p50": p50, "p99": p99, "kib": kib, "us": us, "lost": lost, "pause": pause}
    result.update(connected=connected, refused=refused, dropped=dropped)
    if replies:
        r50, r99 = quantiles(replies)
        line += f"  judge reply p50 {r50:.1f} p99 {r99:.1f} max {max(replies) * 1000:.0f} ms"
        result.update(r50=r50, r99=r99)
    print(line, flush=True)
    return result


async def run_tableside(cfg, db_url: str, n: int, rate: float, deflate: bool) -> dict:
    port = free_port()
    env = serve_env(db_url, cfg.workers)
    log = Path(tempfile.mkdtemp(prefix="tableside-bench-log-")) / "serve.log"
    proc = start([cfg.tableside, "serve", "--port", str(port)], env, port, log)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            judge = Judge(http)
            match_id = await judge.setup()
            url = f"ws://127.0.0.1:{port}/live?match={match_id}"
            # Read only after the run: an unbounded queue keeps it reading meanwhile, so the
            # server never takes it for a slow consumer and closes it (a crash under load).
            probe = await websockets.connect(
                f"{url}&after={judge.position}", compression=None, max_queue=None
            )
            before = rss_kib(proc.pid)
            audience = Audience(url, n, clients_for(n), deflate, after=judge.position)
            ready, connected, refused = await asyncio.to_thread(audience.ready)
            kib = (rss_kib(proc.pid) - before) / max(1, connected)
            cpu = cpu_seconds(proc.pid)
            async with Stalls(f"ws://127.0.0.1:{port}/live?table=9999") as stalls:
                replies = await paced(cfg.seconds, rate, judge.stroke)
            lat, dropped, lost = await asyncio.to_thread(audience.finish, judge.position)
            cpu = cpu_seconds(proc.pid) - cpu
            size, events = await _probed(probe, judge.position)
        name = f"tableside w{cfg.workers} {'deflate' if deflate else 'plain'}"
        counts = (connected, refused, dropped, lost)
        result = report(name, n, lat, counts, ready, kib, cpu, stalls, replies)
        if judge.errors:
            print(f"  judge: {len(judge.errors)} failed posts, e.g. {judge.errors[0]}")
        return {**result, "size": size, "per_stroke": events / max(1, len(replies))}
    finally:
        stop(proc)
        lines = log.read_text(errors="replace").splitlines()
        exhausted = [x for x in lines if "pool exhausted" in x]
        database = [x for x in lines if "database:" in x and "pool exhausted" not in x]
        print(
            f"  server log: {len(exhausted)} pool-exhausted lines, {len(database)} other "
            "database lines",
            *(exhausted[:2] + database[:2]),
            sep="\n    ",
        )
        shutil.rmtree(log.parent, ignore_errors=True)


async def _probed(probe, last: int) -> tuple[int, int]:
    """The largest delta the probe socket saw and how many (up to `last`); what it missed, if
    it was cut, is left out rather than crashing the bench."""
    size, events = 0, 0
    try:
        while True:
            m = json.loads(raw := await asyncio.wait_for(probe.recv(), 10))
            if m["kind"] == "event":
                size, events = max(size, len(raw)), events + 1
                if m["position"] >= last:
                    break
    except (websockets.ConnectionClosed, TimeoutError) as exc:
        print(f"  probe socket: {type(exc).__name__} after {events} deltas")
    await probe.close()
    return size, events


async def run_bare(cfg, n: int, rate: float, per_stroke: int, size: int, deflate: bool) -> dict:
    """The bare app gets what ours published, shaped as ours had it: `per_stroke` messages of
    `size` bytes together, `rate` times a second (a stroke's events are stored, and so
    published, together)."""
    port = free_port()
    pubs = [free_port() for _ in range(cfg.workers)]
    script = str(HERE / "live_baseline.py")
    cmd = [sys.executable, script, str(port), ",".join(map(str, pubs)), "on" if deflate else "off"]
    proc = start(cmd, {}, port)
    try:
        publishers = [await websockets.connect(f"ws://127.0.0.1:{p}/") for p in pubs]
        before = rss_kib(proc.pid)
        audience = Audience(f"ws://127.0.0.1:{port}/", n, clients_for(n), deflate)
        ready, connected, refused = await asyncio.to_thread(audience.ready)
        kib = (rss_kib(proc.pid) - before) / max(1, connected)
        pad = "x" * max(0, size - 70)

        if cfg.bare_shape == "spaced":  # as bench/live.py had it before: a stroke's messages
            rate, per_stroke = rate * per_stroke, 1  # spread evenly, one at a time

        async def send(k: int) -> None:
            for j in range(per_stroke):
                position = k * per_stroke + j + 1
                text = json.dumps(
                    {"kind": "event", "position": position, "sent": time.time(), "p": pad}
                )
                for pub in publishers:
                    await pub.send(text)

        cpu = cpu_seconds(proc.pid)
        async with Stalls(f"ws://127.0.0.1:{port}/") as stalls:
            await paced(cfg.seconds, rate, send)
        total = int(cfg.seconds * rate) * per_stroke
        lat, dropped, lost = await asyncio.to_thread(audience.finish, total)
        cpu = cpu_seconds(proc.pid) - cpu
        for pub in publishers:
            await pub.close()
        name = f"bare w{cfg.workers} {'deflate' if deflate else 'plain'}"
        counts = (connected, refused, dropped, lost)
        return report(name, n, lat, counts, ready, kib, cpu, stalls)
    finally:
        stop(proc)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", default="1000,5000", help="spectator counts (default 1000,5000)")
    parser.add_argument("--rate", default="5,1", help="strokes per second for each count")
    parser.add_argument("--seconds", type=float, default=20.0, help="posting time per case")
    parser.add_argument("--workers", type=int, default=2, help="server processes (both apps)")
    parser.add_argument("--compression", default="off,on", help="off, on or both")
    parser.add_argument(
        "--bare-shape",
        default="together",
        choices=("together", "spaced"),
        help="the bare app publishes a stroke's messages together (as ours are stored and "
        "published) or spaced evenly, one at a time (the figures of earlier sessions)",
    )
    parser.add_argument("--tableside", default=str(Path(sys.executable).with_name("tableside")))
    cfg = parser.parse_args()
    counts = [int(x) for x in cfg.n.split(",")]
    rates = [float(x) for x in cfg.rate.split(",")]
    print(f"load average before: {os.getloadavg()}  cores: {os.cpu_count()}", flush=True)
    with database() as db_url:
        for n, rate in zip(counts, rates + rates[-1:] * len(counts), strict=False):
            for mode in cfg.compression.split(","):
                deflate = mode == "on"
                ours = asyncio.run(run_tableside(cfg, db_url, n, rate, deflate))
                per_stroke = max(1, round(ours["per_stroke"]))
                base = asyncio.run(run_bare(cfg, n, rate, per_stroke, ours["size"], deflate))
                print(
                    f"  ratio at {n} ({mode}): spread p50 {ours['p50'] / base['p50']:.2f}x  "
                    f"p99 {ours['p99'] / base['p99']:.2f}x  memory "
                    f"{ours['kib'] / max(base['kib'], 0.1):.2f}x  CPU "
                    f"{ours['us'] / base['us']:.2f}x  longest pause {ours['pause']:.0f} vs "
                    f"{base['pause']:.0f} ms   (delta {ours['size']} B, "
                    f"{ours['per_stroke']:.1f}/stroke; load {os.getloadavg()[0]:.1f})",
                    flush=True,
                )


if __name__ == "__main__":
    main()
