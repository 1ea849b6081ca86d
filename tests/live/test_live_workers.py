"""Several processes, one log (issue 17 point 4): `tableside serve --workers 2` on one port.

A spectator on either process sees every event in order; one that reconnects to the other
process with `after=` resumes with no gap and no duplicate; a process killed mid-broadcast
costs its spectators nothing once they reconnect.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import psutil
import pytest
import websockets
from support.harness import ADMIN, Api, free_port, run_async
from support.play import create

from live.test_live import _post_strokes

TABLESIDE = str(Path(sys.executable).with_name("tableside"))


class Workers:
    """`tableside serve --workers 2` on this module's database."""

    def __init__(self, database_url: str) -> None:
        self.port = free_port()
        env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "TABLESIDE_ADMIN_USER": ADMIN[0],
            "TABLESIDE_ADMIN_PASSWORD": ADMIN[1],
            "TABLESIDE_COMMAND_RATE": "1000",
            "TABLESIDE_COMMAND_BURST": "1000",
        }
        cmd = [TABLESIDE, "serve", "--workers", "2", "--port", str(self.port)]
        self.proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL)
        self.base, self.ws = f"http://127.0.0.1:{self.port}", f"ws://127.0.0.1:{self.port}"

    def workers(self, count: int = 2, timeout: float = 60) -> list[int]:
        """PIDs of the worker processes, once `count` of them answer."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, "serve exited"
            kids = [c.pid for c in psutil.Process(self.proc.pid).children()]
            listening = [p for p in kids if _listens(p, self.port)]
            if len(listening) >= count and self._answers():
                return listening
            time.sleep(0.2)
        raise AssertionError("workers did not start")

    def _answers(self) -> bool:
        """Both workers have started (a listening socket is inherited before a worker's
        start-up is done): /health answers 200 twice in a row, each within its bound."""
        for _ in range(2):
            try:
                if httpx.get(f"{self.base}/health", timeout=5).status_code != 200:
                    return False
            except httpx.HTTPError:
                return False
        return True

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def _listens(pid: int, port: int) -> bool:
    with contextlib.suppress(psutil.Error):
        return any(
            c.status == psutil.CONN_LISTEN and c.laddr.port == port
            for c in psutil.Process(pid).net_connections()
        )
    return False


def _holder(pids: list[int], local: tuple) -> int | None:
    """Which process holds the server end of the connection from `local` (pidfd_getfd)."""
    libc = ctypes.CDLL(None, use_errno=True)
    for pid in pids:
        with contextlib.suppress(OSError):
            pidfd = os.pidfd_open(pid)
            try:
                for name in os.listdir(f"/proc/{pid}/fd"):
                    if not os.readlink(f"/proc/{pid}/fd/{name}").startswith("socket:"):
                        continue
                    fd = libc.syscall(438, pidfd, int(name), 0)  # SYS_pidfd_getfd
                    if fd < 0:
                        pytest.skip(f"pidfd_getfd refused: errno {ctypes.get_errno()}")
                    with socket.socket(fileno=fd) as sock, contextlib.suppress(OSError):
                        if sock.getpeername()[:2] == local[:2]:
                            return pid
            finally:
                os.close(pidfd)
    return None


@pytest.fixture(scope="module")
def workers(module_database_url):
    srv = Workers(module_database_url)
    try:
        srv.pids = srv.workers()
        yield srv
    finally:
        srv.stop()


class Spectator:
    """One /live socket on a match, reconnecting with `after=` when its process goes away."""

    def __init__(self, base: str, match_id: str) -> None:
        self.base, self.match_id = base, match_id
        self.positions: list[int] = []
        self.last: int | None = None

    async def connect(self, after: int | None = None):
        query = f"match={self.match_id}" + (f"&after={after}" if after is not None else "")
        self.ws = await websockets.connect(f"{self.base}/live?{query}")
        while True:
            msg = json.loads(await asyncio.wait_for(self.ws.recv(), 10))
            self._take(msg)
            if msg["kind"] == "caught_up":
                return self

    def _take(self, msg: dict) -> None:
        if msg["kind"] == "snapshot":
            self.last = msg["position"]
        elif msg["kind"] in ("event", "caught_up"):
            if msg["kind"] == "event":
                self.positions.append(msg["position"])
            self.last = msg["position"]

    async def until(self, position: int, timeout: float = 20) -> None:
        """Read (reconnecting with after= on a lost socket) until `position` has arrived."""
        deadline = time.monotonic() + timeout
        while self.last < position:
            assert time.monotonic() < deadline, f"stuck at {self.last}, want {position}"
            try:
                self._take(json.loads(await asyncio.wait_for(self.ws.recv(), 5)))
            except websockets.ConnectionClosed:
                await self.connect(self.last)


@contextlib.contextmanager
def _only(workers: Workers, pid: int):
    """Every worker but `pid` stopped (SIGSTOP) for the block: a connection made inside it can
    only be accepted by `pid`. The kernel hands a shared listening socket's connections to
    whichever worker wakes first, and on a busy machine that can be the same one every time."""
    others = [p for p in workers.pids if p != pid]
    for other in others:
        os.kill(other, signal.SIGSTOP)
    try:
        yield
    finally:
        for other in others:
            os.kill(other, signal.SIGCONT)


async def _connect_on(workers: Workers, pid: int, match_id: str, after: int | None = None):
    with _only(workers, pid):
        s = await Spectator(workers.ws, match_id).connect(after)
    assert _holder(workers.pids, s.ws.local_address) == pid
    return s


async def _spread(workers: Workers, match_id: str, n: int) -> list[tuple[Spectator, int]]:
    """n spectators with the worker each landed on; at least one on each worker (the first
    on each placed there, the rest wherever the kernel puts them)."""
    placed = []
    for pid in workers.pids:
        placed.append((await _connect_on(workers, pid, match_id), pid))
    while len(placed) < n:
        s = await Spectator(workers.ws, match_id).connect()
        placed.append((s, _holder(workers.pids, s.ws.local_address)))
    return placed


def test_every_process_delivers_every_event_and_resume_crosses_processes(workers):
    head = Api(workers.base).login()
    rng = random.Random(174)
    match_id, view = create(head, 31, rng, games=5, play_all=True)

    async def scenario():
        placed = await _spread(workers, match_id, 6)
        view2, positions = await asyncio.to_thread(_post_strokes, head, match_id, view, 10, rng)
        for s, _ in placed:
            await s.until(positions[-1])
            # a snapshot taken before the read model caught up is followed by the events it
            # lacked (the match's first ones): in order, once each, then every stroke
            assert s.positions == sorted(set(s.positions))
            assert s.positions[len(s.positions) - len(positions) :] == positions
            s.positions = s.positions[len(s.positions) - len(positions) :]
        # Resume on the other process: leave one, miss some events, come back elsewhere.
        s, pid = placed[0]
        await s.ws.close()
        last = s.last
        _, missed = await asyncio.to_thread(_post_strokes, head, match_id, view2, 8, rng)
        other = next(p for p in workers.pids if p != pid)
        back = await _connect_on(workers, other, match_id, last)
        await back.until(missed[-1])
        assert back.positions == missed
        for s, _ in placed[1:]:
            await s.until(missed[-1])
            assert s.positions == positions + missed
            await s.ws.close()
        await back.ws.close()

    run_async(scenario())


def test_a_process_killed_mid_broadcast_loses_nothing(workers):
    head = Api(workers.base).login()
    rng = random.Random(175)
    match_id, view = create(head, 32, rng, games=5, play_all=True)

    async def scenario():
        placed = await _spread(workers, match_id, 6)
        start = placed[0][0].last
        victim = workers.pids[-1]  # a spectator was placed on each process
        posted: list[int] = []

        def post():
            nonlocal view
            for k in range(30):
                if k == 10:  # deltas of the strokes before are still being broadcast
                    os.kill(victim, signal.SIGKILL)
                judge = Api(workers.base, head.token)  # a fresh connection: any live process
                view, positions = _post_strokes(judge, match_id, view, 1, rng)
                judge.http.close()
                posted.extend(positions)

        thread = threading.Thread(target=post)
        thread.start()
        await asyncio.to_thread(thread.join)
        for s, _ in placed:
            await s.until(posted[-1])
            assert [p for p in s.positions if p > start] == posted
            await s.ws.close()

    run_async(scenario())
