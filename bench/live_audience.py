"""Spectators for bench/live.py: N websocket readers timing each message, and helpers."""

from __future__ import annotations

import asyncio
import os
import socket
import statistics
import subprocess
import time
from pathlib import Path

import httpx
import msgspec
import websockets


def rss_kib(pid: int) -> int:
    """Resident memory of a process in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


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
            wave = [
                websockets.connect(url, open_timeout=60, compression=None)
                for _ in range(min(100, n - i))
            ]
            sockets += await asyncio.gather(*wave)
        self.last = [0] * n
        self.ready = 0
        self.tasks = [
            asyncio.create_task(self._read(i, ws, sent_at)) for i, ws in enumerate(sockets)
        ]
        while self.ready < n:  # every socket has had its snapshot: timing starts together
            await asyncio.sleep(0.05)

    async def _read(self, i: int, ws, sent_at) -> None:
        async for raw in ws:
            message = _probe.decode(raw)
            if message.kind == "caught_up":
                self.ready += 1
            elif message.kind == "event" and message.position > self.after:
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


def summary(name: str, latencies: list[float], kib_per_conn: float, cpu: float) -> dict:
    """p50/p99 in ms, memory per connection, server CPU µs per delivery."""
    q = statistics.quantiles(latencies, n=100)
    us = cpu * 1e6 / max(1, len(latencies))
    result = {"p50": q[49] * 1000, "p99": q[98] * 1000, "kib": kib_per_conn, "us": us}
    print(
        f"{name:>10}: {len(latencies):>7} deliveries  p50 {result['p50']:7.1f} ms  "
        f"p99 {result['p99']:7.1f} ms  memory {kib_per_conn:6.1f} KiB/connection  "
        f"server CPU {us:5.1f} µs/delivery"
    )
    return result


async def paced(count: int, rate: float, step) -> None:
    """Call `step(k)` count times at `rate` per second."""
    t0 = time.monotonic()
    for k in range(count):
        await step(k)
        await asyncio.sleep(max(0.0, t0 + (k + 1) / rate - time.monotonic()))
