"""A crowd arrives at once (issue 42): every spectator's socket served from memory.

The crowd's server has a pool of two connections: a `/live` connect that needed the database
(the snapshot, the gap, the per-address count) would queue a thousand sockets on those two.
Events are posted through the module's other server (`server`, `head`), one log for both, so
the restart test can post while the crowd's server is down.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import time
from pathlib import Path

import pytest
import websockets
from support.harness import Server, run_async
from support.play import create

from live.test_live import _post_strokes

CONNECT = (OSError, TimeoutError, websockets.InvalidHandshake)


@pytest.fixture(scope="module")
def crowd(module_database_url, tmp_path_factory):
    log = tmp_path_factory.mktemp("crowd") / "server.log"
    env = {"TABLESIDE_DB_POOL_SIZE": "2", "TABLESIDE_LIVE_PER_CLIENT": "5000"}
    srv = Server(module_database_url, env=env, output=str(log)).start()
    srv.log = log
    yield srv
    srv.stop()


class Spectator:
    """One /live socket on a match that, like live.js, resumes with `after=` the last position
    it applied, retrying with jittered backoff while the server is away."""

    def __init__(self, base: str, match_id: str) -> None:
        self.base, self.match_id = base, match_id
        self.events: list[int] = []  # every event position received, in arrival order
        self.snapshots = 0
        self.last: int | None = None
        self.ws = None

    async def connect(self, deadline: float) -> Spectator:
        failures = 0
        while True:
            after = f"&after={self.last}" if self.last is not None else ""
            try:
                self.ws = await websockets.connect(
                    f"{self.base}/live?match={self.match_id}{after}",
                    compression=None,
                    open_timeout=60,
                )
                await self._read_until(lambda m: m["kind"] == "caught_up", deadline)
                return self
            except (*CONNECT, websockets.ConnectionClosed):
                failures += 1
                assert time.monotonic() < deadline, "never connected"
                await asyncio.sleep(random.uniform(0, min(2.0, 0.1 * 2**failures)))

    async def _read_until(self, done, deadline: float) -> None:
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"stuck at {self.last}"
            msg = json.loads(await asyncio.wait_for(self.ws.recv(), left))
            if msg["kind"] == "snapshot":
                self.snapshots += 1
                self.last = msg["position"]
            elif msg["kind"] == "event":
                self.events.append(msg["position"])
                self.last = msg["position"]
            elif msg["kind"] == "caught_up":
                self.last = max(self.last or 0, msg["position"])
            if done(msg):
                return

    async def until(self, position: int, seconds: float = 120) -> None:
        """Read (resuming on a lost socket) until `position` has arrived."""
        deadline = time.monotonic() + seconds
        while (self.last or 0) < position:
            try:
                await self._read_until(lambda _: (self.last or 0) >= position, deadline)
            except websockets.ConnectionClosed:
                await self.connect(deadline)


def _no_pool_exhausted(crowd: Server) -> None:
    text = Path(crowd.log).read_text(errors="replace")
    assert "pool exhausted" not in text, text[-2000:]


def test_a_thousand_spectators_at_once_on_a_pool_of_two(crowd, head):
    """1,000 sockets connect at once to a server with 2 pooled connections: every one gets
    its snapshot and every later event, in order and once; none is refused."""
    rng = random.Random(421)
    match_id, view = create(head, 41, rng, games=5, play_all=True)
    view, _ = _post_strokes(head, match_id, view, 3, rng)

    async def scenario():
        deadline = time.monotonic() + 180
        people = [Spectator(crowd.ws, match_id) for _ in range(1000)]
        await asyncio.gather(*(s.connect(deadline) for s in people))
        assert all(s.snapshots == 1 for s in people)
        _, posted = await asyncio.to_thread(_post_strokes, head, match_id, view, 5, rng)
        await asyncio.gather(*(s.until(posted[-1]) for s in people))
        for s in people:
            assert s.events == sorted(set(s.events)), "a duplicate or out of order"
            assert s.events[-len(posted) :] == posted
        await asyncio.gather(*(s.ws.close() for s in people))

    run_async(scenario())
    _no_pool_exhausted(crowd)


def test_a_restart_under_five_hundred_spectators_loses_nothing(crowd, head):
    """500 spectators on the crowd's server; it stops while events go on being stored (through
    the other server) and starts again: every spectator resumes with `after=`, from the
    restarted hub's ring, and gets every event once, in order — no snapshot in between."""
    rng = random.Random(422)
    match_id, view = create(head, 42, rng, games=5, play_all=True)

    async def scenario():
        nonlocal view
        deadline = time.monotonic() + 180
        people = [Spectator(crowd.ws, match_id) for _ in range(500)]
        await asyncio.gather(*(s.connect(deadline) for s in people))
        start = {id(s): s.last for s in people}
        view, before = await asyncio.to_thread(_post_strokes, head, match_id, view, 3, rng)
        await asyncio.gather(*(s.until(before[-1]) for s in people))
        await asyncio.to_thread(crowd.stop)
        view, down = await asyncio.to_thread(_post_strokes, head, match_id, view, 4, rng)
        await asyncio.to_thread(crowd.start)
        view, after = await asyncio.to_thread(_post_strokes, head, match_id, view, 3, rng)
        posted = before + down + after
        await asyncio.gather(*(s.until(posted[-1]) for s in people))
        for s in people:
            assert [p for p in s.events if p > start[id(s)]] == posted
            assert s.snapshots == 1, "resumed from a snapshot, not the gap"
        await asyncio.gather(*(s.ws.close() for s in people))

    run_async(scenario())
    _no_pool_exhausted(crowd)


def test_caught_up_after_a_resume_means_what_was_stored_before_the_socket_came(crowd, head):
    """The crowd's server is held still (SIGSTOP) while a stroke is stored through the other
    server and a spectator resumes on it with `after=` the position before the stroke; let go
    (SIGCONT), its hub learns of the stroke by NOTIFY while it serves the socket: the stroke
    comes before `caught_up`, never after it as if stored after the socket came. It used to
    come after it on a loaded machine (issue 50's resume test failed in CI)."""
    rng = random.Random(423)
    match_id, view = create(head, 43, rng, games=5, play_all=True)
    pid = crowd.proc.pid

    async def resumed(after: int) -> list[int]:
        url = f"{crowd.ws}/live?match={match_id}&after={after}"
        async with websockets.connect(url, compression=None, open_timeout=30) as ws:
            before = []
            while (msg := json.loads(await asyncio.wait_for(ws.recv(), 30)))["kind"] != "caught_up":
                before.append(msg.get("position"))
            return before

    async def scenario():
        nonlocal view
        late = []
        for _ in range(10):
            os.kill(pid, signal.SIGSTOP)
            try:
                view, posted = await asyncio.to_thread(_post_strokes, head, match_id, view, 1, rng)
                socket = asyncio.ensure_future(resumed(posted[0] - 1))
                await asyncio.sleep(0.2)  # the client's handshake is in the server's backlog
            finally:
                os.kill(pid, signal.SIGCONT)
            if posted[-1] not in (before := await socket):
                late.append((posted, before))
        assert late == []

    run_async(scenario())
