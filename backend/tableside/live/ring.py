"""The hub's ring: the last RING_SIZE deltas it published, every channel's, in position order.

A socket that resumes with `after=` (a reconnect, a crowd after a server restart) and a socket
served a cached snapshot (live/snapshots.py) get the deltas they lack from here, not from the
database: the ring is complete after `start` (every delta of every channel the slices render
is published, whether or not anybody listens), so a position at or after `start` is served
from memory, an older one gets a snapshot instead.

The hub fills the ring at start-up from the log's last RING_SIZE events (`Hub.position`), and
`ready` is set once it has read up to the head: a socket arriving before waits on that
(bounded), never on the pool.
"""

from __future__ import annotations

import asyncio
import heapq
from bisect import bisect_right
from collections import deque
from collections.abc import Sequence

RING_SIZE = 2048  # deltas kept (a few MB at most: each is one stored event's message)


class Ring:
    """The last `size` deltas published, with the position after which it holds them all."""

    def __init__(self, size: int = RING_SIZE) -> None:
        self.size = size
        self.items: deque[tuple[int, bytes, Sequence[str]]] = deque()
        self.positions: deque[int] = deque()
        self.start: int | None = None  # complete after this position (None: not started)
        self.head = 0  # the last delta's position
        self.read = 0  # the hub has read (and published) everything up to here
        self.ready = asyncio.Event()  # the hub has read up to the log's head once
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []  # a heap

    def begin(self, position: int) -> None:
        """The hub starts reading after `position`: complete from there on."""
        if self.start is None:
            self.start = self.head = self.read = position

    def add(self, position: int, data: bytes, channels: Sequence[str]) -> None:
        """Keep one published delta (in position order), forgetting the oldest past `size`."""
        if self.start is None or position < self.head:
            return  # before the hub began
        self.items.append((position, data, channels))
        self.positions.append(position)
        self.head = position
        while len(self.items) > self.size:
            self.items.popleft()
            self.start = self.positions.popleft()

    def reach(self, position: int) -> None:
        """The hub has read up to `position`: the sockets waiting for it go on."""
        self.read = max(self.read, position)
        while self._waiting and self._waiting[0][0] <= self.read:
            _, _, waiter = heapq.heappop(self._waiting)
            if not waiter.done():
                waiter.set_result(None)

    async def reached(self, position: int, seconds: float) -> bool:
        """Wait (at most `seconds`) until the hub has read up to `position`; False when it
        has not by then (what it lacks then comes through the socket's queue, later)."""
        if self.read >= position:
            return True
        waiter = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (position, id(waiter), waiter))
        try:
            async with asyncio.timeout(seconds):
                await waiter
        except TimeoutError:
            return False
        return True

    def covers(self, after: int) -> bool:
        """Whether every delta after `after` is here (or yet to come)."""
        return self.start is not None and after >= self.start

    def after(self, after: int, channel: str) -> list[tuple[int, bytes]]:
        """The deltas of `channel` after `after`, in order."""
        items = self.items
        wanted = (items[k] for k in range(bisect_right(self.positions, after), len(items)))
        return [(position, data) for position, data, names in wanted if channel in names]
