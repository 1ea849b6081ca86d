"""Remote spectators of the federation's live relay (issue 51), as many sockets as asked in one
asyncio loop: each follows a venue's feed on one node, checks every position it is sent
(dense per venue: a gap or a duplicate is counted, never hidden), and when its socket is
closed or its node dies reconnects — after a jittered wait, or the node's retry hint — to the
next node with `after=<the last position it saw>`. Used by tests/federation/test_relay*.py and
bench/remote_live.py. Loopback addresses only; every wait is bounded."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

PATH = "/api/federation/live"
_HINT = re.compile(r"retry in ([0-9.]+) s")


@dataclass
class Spectator:
    """What one remote spectator saw."""

    node: int
    start: int | None = None  # the snapshot's position
    last: int = 0
    events: int = 0
    gaps: int = 0
    duplicates: int = 0
    resets: int = 0  # a snapshot sent again on a resume (it should get the gap instead)
    reconnects: int = 0
    caught_up: int = 0  # how many times it was caught up (once per connect)
    closes: list[int] = field(default_factory=list)
    notices: list[dict] = field(default_factory=list)
    delays: list[float] = field(default_factory=list)  # venue's recorded_at → here, seconds
    nodes: set[int] = field(default_factory=set)
    dense: bool = True  # a venue's feed: every position; a stream's: its own only
    positions: list[int] = field(default_factory=list)  # a stream's, as sent

    def take(self, message: dict, timed: bool) -> None:
        kind = message.get("kind")
        if kind == "snapshot":
            if self.start is not None:
                self.resets += 1
            else:
                self.start = message["position"]
            self.last = message["position"]
        elif kind == "event":
            position = message["position"]
            if position <= self.last:
                self.duplicates += 1
                return
            if self.dense and position != self.last + 1:
                self.gaps += 1
            elif not self.dense:
                self.positions.append(position)
            self.last = position
            self.events += 1
            if timed:
                at = datetime.fromisoformat(message["recorded_at"]).timestamp()
                self.delays.append(time.time() - at)
        elif kind == "venue":
            self.notices.append(message)
        elif kind == "caught_up":
            self.caught_up += 1


class Crowd:
    """`n` spectators of `venue` spread over `nodes` (ws://127.0.0.1:port bases)."""

    def __init__(
        self, nodes: list[str], venue: str, n: int, timed: bool = False, stream: str = ""
    ) -> None:
        self.nodes, self.venue, self.timed, self.stream = nodes, venue, timed, stream
        self.spectators = [Spectator(k % len(nodes), dense=not stream) for k in range(n)]
        self.stopping: asyncio.Event | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    def url(self, node: int, after: int) -> str:
        query = f"venue={self.venue}" + (f"&stream={self.stream}" if self.stream else "")
        query += f"&after={after}" if after else ""
        return f"{self.nodes[node]}{PATH}?{query}"

    async def follow(self, s: Spectator) -> None:
        while not self.stopping.is_set():
            wait = random.uniform(0.2, 1.5)  # a reconnect is jittered
            s.nodes.add(s.node)
            try:
                async with connect(
                    self.url(s.node, s.last), open_timeout=30, ping_interval=None, max_size=2**24
                ) as ws:
                    async for text in ws:
                        s.take(json.loads(text), self.timed)
            except ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd else 1006
                s.closes.append(code)
                hint = _HINT.search(closed.rcvd.reason) if closed.rcvd else None
                wait = float(hint.group(1)) if hint else wait
            except (OSError, TimeoutError, InvalidHandshake):
                s.closes.append(0)
            if self.stopping.is_set():
                return
            s.reconnects += 1
            s.node = (s.node + 1) % len(self.nodes)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stopping.wait(), wait)

    async def run(self) -> None:
        self.stopping = asyncio.Event()
        self.loop = asyncio.get_running_loop()
        tasks = [asyncio.create_task(self.follow(s)) for s in self.spectators]
        await self.stopping.wait()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def start(self) -> Crowd:
        """Run the crowd in a thread of its own (the test's thread drives the venue)."""
        self._thread = threading.Thread(target=asyncio.run, args=(self.run(),), daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 10
        while self.loop is None and time.monotonic() < deadline:
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        if self.loop is not None and self.stopping is not None:
            self.loop.call_soon_threadsafe(self.stopping.set)
        if self._thread is not None:
            self._thread.join(30)

    def all(self, check) -> bool:
        return all(check(s) for s in self.spectators)
