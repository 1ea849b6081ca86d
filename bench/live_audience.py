"""Spectators for bench/live.py: client processes of websocket readers, and process figures.

Each client process opens its share of sockets all at once (offering permessage-deflate when
asked, as browsers do), reports when every socket has had its `caught_up` or was refused,
then times every event until told the last position, and sends back its latencies and how
many sockets were dropped or missed something. A refused, dropped or lost socket is counted,
never raised: a regression shows up as a number.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import resource
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


def raise_nofile() -> int:
    """This process's soft limit on open files raised to its hard one (`ulimit -Hn`), which
    the processes it starts inherit: one holding thousands of sockets needs it. The limit."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


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
    raise_nofile()
    asyncio.run(_spectate(url, n, deflate, after, conn))


class Socket:
    """One spectator: connected (its `caught_up` came), refused (no handshake, or closed
    before its `caught_up`: a 4429, a server out of resources), dropped (closed after it),
    the last event position it saw."""

    __slots__ = ("caught", "ended", "last")

    def __init__(self) -> None:
        self.caught = False
        self.ended = False
        self.last = 0


async def _spectate(url: str, n: int, deflate: bool, after: int, conn) -> None:
    """All n sockets at once (as a crowd arrives), each read until the run ends; nothing
    that happens to a socket ends the client: it is counted."""
    latencies: list[float] = []
    people = [Socket() for _ in range(n)]
    settled = 0
    ready = asyncio.Event()

    def settle() -> None:
        nonlocal settled
        settled += 1
        if settled == n:
            ready.set()

    async def spectate(s: Socket) -> None:
        # refused or dropped, whatever the cause: counted (a cancel at the end goes through)
        with contextlib.suppress(Exception):
            ws = await websockets.connect(
                url, open_timeout=120, compression="deflate" if deflate else None, max_queue=None
            )
            async for raw in ws:
                m = _probe.decode(raw)
                if m.kind == "caught_up":
                    s.caught = True
                    settle()
                elif m.kind == "event" and m.position > after:
                    sent = m.sent or datetime.fromisoformat(m.recorded_at).timestamp()
                    latencies.append(time.time() - sent)
                    s.last = m.position
        s.ended = True
        if not s.caught:
            settle()

    t0 = time.monotonic()
    tasks = [asyncio.create_task(spectate(s)) for s in people]
    with contextlib.suppress(TimeoutError):  # those still connecting then count as refused
        await asyncio.wait_for(ready.wait(), 180)
    connected = sum(s.caught for s in people)
    conn.send(("ready", time.monotonic() - t0, connected, n - connected))
    target = await asyncio.to_thread(conn.recv)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and any(
        s.caught and not s.ended and s.last < target for s in people
    ):
        await asyncio.sleep(0.05)
    dropped = sum(1 for s in people if s.caught and s.ended and s.last < target)
    lost = sum(1 for s in people if s.caught and not s.ended and s.last < target)
    conn.send(("done", latencies, dropped, lost))
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


class Audience:
    """n spectators over `clients` processes."""

    def __init__(self, url: str, n: int, clients: int, deflate: bool, after: int = 0) -> None:
        spawn = multiprocessing.get_context("spawn")
        self.pipes, self.procs = [], []
        self.shares = [n // clients + (1 if i < n % clients else 0) for i in range(clients)]
        for share in self.shares:
            ours, theirs = spawn.Pipe()
            proc = spawn.Process(target=_client, args=(url, share, deflate, after, theirs))
            proc.start()
            self.pipes.append(ours)
            self.procs.append(proc)
        self.refused = 0

    def _answer(self, pipe, seconds: float = 240):
        """A client process's next answer; None when it died or said nothing in time."""
        try:
            return pipe.recv() if pipe.poll(seconds) else None
        except (EOFError, OSError):
            return None

    def ready(self) -> tuple[float, int, int]:
        """Seconds until the slowest client process had every socket settled, and how many
        sockets connected and were refused (a client process that died: all of its)."""
        took, connected = 0.0, 0
        for pipe, share in zip(self.pipes, self.shares, strict=True):
            answer = self._answer(pipe)
            if answer is None:
                self.refused += share
                continue
            _, seconds, ok, refused = answer
            took, connected = max(took, seconds), connected + ok
            self.refused += refused
        return took, connected, self.refused

    def finish(self, target: int) -> tuple[list[float], int, int]:
        """Latencies of every delivery, sockets dropped by the server, and sockets still open
        that never saw `target` (lost)."""
        latencies, dropped, lost = [], 0, 0
        for pipe in self.pipes:
            with contextlib.suppress(OSError):
                pipe.send(target)
        for pipe, share in zip(self.pipes, self.shares, strict=True):
            answer = self._answer(pipe, 120)
            if answer is None:
                lost += share  # the client process died: every socket of it counts as lost
                continue
            _, got, gone, missed = answer
            latencies += got
            dropped += gone
            lost += missed
        for proc in self.procs:
            proc.join(30)
            if proc.is_alive():
                proc.kill()
        return latencies, dropped, lost


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
