"""What a standby costs the judge (issue 33): a judge's command over HTTP with K judges
(`command_path.measure`: each posts strokes on its own table as fast as its replies come)
against `tableside serve --replication` on an embedded PostgreSQL, first with no standby
(asynchronous: the same-run baseline), then with `tableside standby` attached (every commit
waits for the standby's flush), and the standby's lag on the primary's pg_stat_replication
(write/flush/replay lag, bytes not yet replayed) sampled during the synchronous runs.

    .venv/bin/python bench/standby.py [--k 1,4] [--seconds 10]

Both PostgreSQL servers and both processes run on this machine (loopback), as in the tests:
a second laptop on a cable adds its round trip to every commit.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

import psycopg
from command_path import measure
from live import serve_env, start, stop
from live_audience import free_port, quantiles

_LAG = (
    "SELECT extract(epoch FROM coalesce(flush_lag, '0')), extract(epoch FROM coalesce(replay_lag,"
    " '0')), pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn) FROM pg_stat_replication"
    " WHERE application_name = 'tableside_standby'"
)


def _runs(cfg, base: str, label: str) -> dict[int, tuple[float, float, float]]:
    found = {}
    for k in (int(x) for x in cfg.k.split(",")):
        found[k] = asyncio.run(measure(base, k, cfg.seconds, bare=False))
        rate, p50, p99 = found[k]
        print(
            f"  {label:<12} K={k:<2} {rate:6.0f}/s  p50 {p50:5.1f} ms  p99 {p99:6.1f} ms",
            flush=True,
        )
    return found


def _sample_lag(url: str, done: threading.Event, into: list[tuple[float, float, float]]) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        while not done.wait(0.1):
            row = conn.execute(_LAG).fetchone()
            if row is not None:
                into.append((float(row[0]), float(row[1]), float(row[2] or 0)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", default="1,4")
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--tableside", default=str(Path(sys.executable).parent / "tableside"))
    cfg = parser.parse_args()
    from tableside.db.embedded import running_url

    work = Path(tempfile.mkdtemp(prefix="tableside-bench-standby-"))
    work.chmod(0o755)
    ports = [free_port() for _ in range(3)]
    dirs = [work / "primary" / "pgdata", work / "standby" / "pgdata"]
    env = {**serve_env("", 1), "TABLESIDE_KEY_FILE": str(work / "key.pem")}
    base = f"http://127.0.0.1:{ports[0]}"
    primary = start(
        [cfg.tableside, "serve", "--port", str(ports[0]), "--data-dir", str(dirs[0]),
         "--replication", f"127.0.0.1:{ports[1]}"], env, ports[0],
    )  # fmt: skip
    standby = None
    try:
        print(f"judge command over HTTP, 1 worker, {cfg.seconds:.0f} s per run")
        alone = _runs(cfg, base, "no standby")
        credentials = work / "primary" / "replication" / "standby-credentials.json"
        standby = start(
            [cfg.tableside, "standby", "--primary", f"127.0.0.1:{ports[1]}", "--credentials",
             str(credentials), "--data-dir", str(dirs[1]), "--replication",
             f"127.0.0.1:{ports[2]}", "--port", str(ports[2] + 1)], env, ports[0],
        )  # fmt: skip
        url = running_url(dirs[0])
        deadline = time.monotonic() + 120
        while not _synchronous(url):
            if time.monotonic() > deadline:
                raise RuntimeError("the standby did not attach")
            time.sleep(0.2)
        lags: list[tuple[float, float, float]] = []
        done = threading.Event()
        sampler = threading.Thread(target=_sample_lag, args=(url, done, lags))
        sampler.start()
        try:
            synced = _runs(cfg, base, "synchronous")
        finally:
            done.set()
            sampler.join()
        for k, (rate, p50, p99) in synced.items():
            r0, a50, a99 = alone[k]
            print(
                f"  K={k}: synchronous / no standby: p50 {p50 / a50:.2f}x, p99 {p99 / a99:.2f}x,"
                f" throughput {rate / r0:.2f}x"
            )
        for i, what in enumerate(("flush lag", "replay lag")):
            p50, p99 = quantiles([lag[i] for lag in lags])
            print(f"  standby {what}: p50 {p50:.1f} ms, p99 {p99:.1f} ms ({len(lags)} samples)")
        behind = [lag[2] for lag in lags]
        print(f"  bytes not yet replayed: max {max(behind, default=0):.0f}")
    finally:
        for proc in (standby, primary):
            if proc is not None:
                stop(proc)
        time.sleep(1)
        shutil.rmtree(work, ignore_errors=True)


def _synchronous(url: str) -> bool:
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync'"
        ).fetchone()
    return row[0] > 0


if __name__ == "__main__":
    os.chdir(Path(__file__).parent)
    main()
