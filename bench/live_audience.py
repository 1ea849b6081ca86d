"""Spectators for bench/live.py: client processes of websocket readers, and process figures.

Each client process opens its share of sockets (offering permessage-deflate when asked, as
browsers do), reports when every socket has had its `caught_up`, then times every event until
told the last position, and sends back its latencies and how many sockets missed something.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import socket
import statistics
import time
from datetime import datetime

import msgspec
import psutil
import websockets


class Probe(msgspec.Struct):
    """The few fields a spectator needs to time a message (the rest is skipped unparsed)."""

    kind: str = ""
    position: int = 0
    recorded_at: str = ""
    sent: float = 0.0


_probe = msgspec.json.Decoder(Probe)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tree(pid: int, exclude: tuple[str, ...] = ("postgres",)) -> list[psutil.Process]:
    """A server process and its children (the workers), PostgreSQL left out."""
    root = psutil.Process(pid)
    procs = [root, *root.children(recursive=True)]
    return [p for p in procs if p.name() not in exclude]


def rss_kib(pid: int) -> float:
    return sum(p.memory_info().rss for p in tree(pid)) / 1024


def cpu_seconds(pid: int) -> float:
    return sum(sum(p.cpu_times()[:2]) for p in tree(pid))


def _client(url: str, n: int, deflate: bool, after: int, conn) -> None:
    asyncio.run(_spectate(url, n, deflate, after, conn))


async def _spectate(url: str, n: int, deflate: bool, after: int, conn) -> None:
    latencies: list[float] = []
    last = [0] * n
    ready = asyncio.Event()
    caught = 0

    async def read(i: int, ws) -> None:
        nonlocal caught
        async for raw in ws:
            m = _probe.decode(raw)
            if m.kind == "caught_up":
                caught += 1
                if caught == n:
                    ready.set()
            elif m.kind == "event" and m.position > after:
                sent = m.sent or datetime.fromisoformat(m.recorded_at).timestamp()
                latencies.append(time.time() - sent)
                last[i] = m.position

    t0 = time.monotonic()
    sockets = []
    for i in range(0, n, 100):
        wave = [
            websockets.connect(
                url, open_timeout=120, compression="deflate" if deflate else None, max_queue=None
            )
            for _ in range(min(100, n - i))
        ]
        sockets += await asyncio.gather(*wave)
    tasks = [asyncio.create_task(read(i, ws)) for i, ws in enumerate(sockets)]
    await asyncio.wait_for(ready.wait(), 120)
    conn.send(("ready", time.monotonic() - t0))
    target = await asyncio.to_thread(conn.recv)
    deadline = time.monotonic() + 60
    while min(last) < target and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    lost = sum(1 for x in last if x < target)
    conn.send(("done", latencies, lost))
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


class Audience:
    """n spectators over `clients` processes."""

    def __init__(self, url: str, n: int, clients: int, deflate: bool, after: int = 0) -> None:
        spawn = multiprocessing.get_context("spawn")
        self.pipes, self.procs = [], []
        shares = [n // clients + (1 if i < n % clients else 0) for i in range(clients)]
        for share in shares:
            ours, theirs = spawn.Pipe()
            proc = spawn.Process(target=_client, args=(url, share, deflate, after, theirs))
            proc.start()
            self.pipes.append(ours)
            self.procs.append(proc)

    def ready(self) -> float:
        """Seconds until the slowest client process had every socket caught up."""
        return max(pipe.recv()[1] for pipe in self.pipes)

    def finish(self, target: int) -> tuple[list[float], int]:
        """Latencies of every delivery, and sockets that never saw `target`."""
        for pipe in self.pipes:
            pipe.send(target)
        latencies, lost = [], 0
        for pipe in self.pipes:
            _, got, missed = pipe.recv()
            latencies += got
            lost += missed
        for proc in self.procs:
            proc.join(30)
        return latencies, lost


def quantiles(values: list[float]) -> tuple[float, float]:
    """p50 and p99 in milliseconds, within the values seen (inclusive: the 20 replies of a
    case at 1 stroke/s would otherwise give a p99 above their maximum)."""
    if len(values) < 2:
        return (values[0] * 1000, values[0] * 1000) if values else (0.0, 0.0)
    q = statistics.quantiles(values, n=100, method="inclusive")
    return q[49] * 1000, q[98] * 1000


async def paced(seconds: float, rate: float, step) -> list[float]:
    """Call `step(k)` at `rate` per second for `seconds`; the time each call took."""
    t0, took = time.monotonic(), []
    for k in range(int(seconds * rate)):
        s = time.monotonic()
        await step(k)
        took.append(time.monotonic() - s)
        await asyncio.sleep(max(0.0, t0 + (k + 1) / rate - time.monotonic()))
    return took
