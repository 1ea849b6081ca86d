"""Live-feed fan-out: N spectators on one match while a judge posts strokes; then a bare
`websockets` broadcast server to the same N as the baseline. Prints commit-to-receive p50/p99,
server memory per connection, and the ratio to the baseline.

    .venv/bin/python bench/live.py [--n 1000] [--strokes 200] [--rate 10]

Traffic stays on 127.0.0.1; the database is DATABASE_URL or a throwaway embedded PostgreSQL.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
import tempfile
import uuid
from contextlib import contextmanager
from pathlib import Path

import httpx
import psycopg
from live_audience import Audience, cpu_seconds, free_port, paced, rss_kib, start, summary
from live_baseline import run_baseline
from tableside.db import migrations
from tableside.db.embedded import EmbeddedPostgres
from tableside.db.url import with_dbname

ADMIN = ("bench", "bench-password")


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


class Judge:
    """Creates a match and posts always-legal strokes (nothing pocketed: the turn passes)."""

    def __init__(self, http: httpx.AsyncClient) -> None:
        self.http, self.turn, self.version, self.position = http, "", 0, 0

    async def setup(self) -> str:
        r = await self.http.post("/api/login", json={"username": ADMIN[0], "password": ADMIN[1]})
        self.http.headers["Authorization"] = f"Bearer {r.json()['token']}"
        r = await self.http.post(
            "/api/matches",
            json={"command_id": str(uuid.uuid4()), "table": 1, "side_a": ["a"], "side_b": ["b"]},
        )
        self.match_id = r.json()["match_id"]
        self._follow(r.json())
        await self.post({"type": "AssignOpeningShot", "method": "lot", "lot_winner": "A"})
        return self.match_id

    async def post(self, command: dict) -> None:
        r = await self.http.post(
            f"/api/matches/{self.match_id}/commands",
            json={
                "command_id": str(uuid.uuid4()),
                "expected_version": self.version,
                "command": command,
            },
        )
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
    env = {
        "DATABASE_URL": db_url,
        "TABLESIDE_ADMIN_USER": ADMIN[0],
        "TABLESIDE_ADMIN_PASSWORD": ADMIN[1],
        "TABLESIDE_COMMAND_RATE": "100000",
        "TABLESIDE_COMMAND_BURST": "100000",
        "TABLESIDE_DB_POOL_SIZE": "10",
    }
    proc = start(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "--factory",
            "tableside.app.asgi:from_env",
            "--port",
            str(port),
            "--log-level",
            "warning",
        ],
        env,
        port,
    )
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            judge = Judge(http)
            match_id = await judge.setup()
            before, audience = rss_kib(proc.pid), Audience()
            audience.after = judge.position
            await audience.connect(f"ws://127.0.0.1:{port}/live?match={match_id}", n, _recorded_at)
            per_conn = (rss_kib(proc.pid) - before) / n
            cpu = cpu_seconds(proc.pid)
            await paced(strokes, rate, judge.stroke)
            await audience.wait_for(judge.position)
            cpu = cpu_seconds(proc.pid) - cpu
        result = summary("tableside", audience.latencies, per_conn, cpu)
        return {**result, "events": round(len(audience.latencies) / n / strokes)}
    finally:
        proc.terminate()
        proc.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000, help="spectators (default 1000)")
    parser.add_argument("--strokes", type=int, default=200, help="strokes to post (default 200)")
    parser.add_argument("--rate", type=float, default=10.0, help="strokes per second (default 10)")
    args = parser.parse_args()
    with database() as db_url:
        ours = asyncio.run(run_tableside(db_url, args.n, args.strokes, args.rate))
    per_stroke = max(1, ours["events"])  # events per stroke: the baseline sends as many
    base = asyncio.run(run_baseline(args.n, args.strokes * per_stroke, args.rate * per_stroke))
    print(
        f"     ratio: p50 {ours['p50'] / base['p50']:.1f}x  p99 {ours['p99'] / base['p99']:.1f}x"
        f"  memory {ours['kib'] / max(base['kib'], 0.1):.1f}x  CPU {ours['us'] / base['us']:.1f}x"
        "   (tableside / bare websockets)"
    )
    print(
        f"    target: p99 <= 250 ms at 1,000 spectators -> "
        f"{'met' if ours['p99'] <= 250 else 'NOT met'} ({args.n} spectators)"
    )


if __name__ == "__main__":
    main()
