"""The live feed's fan-out: subscribers by channel, bounded queues, delivery that yields.

The hub publishes each delta once, already encoded; the same text object goes to every
subscriber of its channels. Publishing never waits: it queues the delta for the fan-out task,
which hands it to subscribers a slice at a time and yields between slices, so a judge's request
is never stuck behind a whole audience. Each subscriber's own task does its socket sends; one
that falls `limit` deltas behind is dropped (its socket closed with SLOW), never waited for.
"""

from __future__ import annotations

import asyncio
from collections import Counter, deque
from collections.abc import Callable

SLOW = 4503  # close code: too far behind; reconnect with `after=` (the client does)
BUSY = 4429  # close code: too many live sockets from this client address
SLICE = 64  # subscribers handed a delta between two yields to the event loop


class Subscriber:
    """One socket's queue of (position, text) deltas; `drop` closes it when it falls behind."""

    __slots__ = ("drop", "dropped", "queue", "ready")

    def __init__(self, drop: Callable[[], object]) -> None:
        self.queue: deque[tuple[int, str]] = deque()
        self.ready = asyncio.Event()
        self.drop = drop
        self.dropped = False

    def offer(self, position: int, text: str, limit: int) -> None:
        if self.dropped:
            return
        if len(self.queue) >= limit:
            self.dropped = True
            self.queue.clear()
            self.drop()
            return
        self.queue.append((position, text))
        self.ready.set()

    async def take(self) -> list[tuple[int, str]]:
        """Everything queued, waiting until something is."""
        while not self.queue:
            self.ready.clear()
            await self.ready.wait()
        items = list(self.queue)
        self.queue.clear()
        return items


class Audience:
    """The process's live subscribers and the one task that fans deltas out to them."""

    def __init__(self, limit: int = 512, per_client: int = 200) -> None:
        self.limit, self.per_client = limit, per_client
        self.channels: dict[str, set[Subscriber]] = {}
        self.clients: Counter[str] = Counter()
        self.pending: deque[tuple[int, str, list[str]]] = deque()
        self.wake = asyncio.Event()
        self.position = 0  # the last position published (the hub's head)
        self.delivered = 0

    def admit(self, client: str) -> bool:
        """Count a socket of this client address; False when it already has `per_client`."""
        if self.clients[client] >= self.per_client:
            return False
        self.clients[client] += 1
        return True

    def leave(self, client: str) -> None:
        self.clients[client] -= 1
        if self.clients[client] <= 0:
            del self.clients[client]

    def subscribe(self, channel: str, drop: Callable[[], object]) -> Subscriber:
        sub = Subscriber(drop)
        self.channels.setdefault(channel, set()).add(sub)
        return sub

    def unsubscribe(self, channel: str, sub: Subscriber) -> None:
        subs = self.channels.get(channel)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self.channels[channel]

    def publish(self, position: int, text: str, channels: list[str]) -> None:
        """Queue one delta for its channels; returns at once."""
        self.pending.append((position, text, channels))
        self.position = max(self.position, position)
        self.wake.set()

    async def run(self) -> None:
        """Hand each published delta to its subscribers, in order, yielding every SLICE."""
        while True:
            await self.wake.wait()
            self.wake.clear()
            while self.pending:
                position, text, names = self.pending.popleft()
                handed = 0
                for name in names:
                    for sub in list(self.channels.get(name, ())):
                        sub.offer(position, text, self.limit)
                        handed += 1
                        if handed % SLICE == 0:
                            await asyncio.sleep(0)
                self.delivered += handed
                await asyncio.sleep(0)
