"""The live feed's fan-out: subscribers by channel, bounded queues, delivery that yields.

The hub publishes each delta once, already encoded; the same bytes go to every subscriber of
its channels. Publishing never waits: it queues the delta for the fan-out task, which hands it
to subscribers a slice at a time and yields between slices, so a judge's request is never stuck
behind a whole audience. A subscriber still catching up queues its deltas for its socket's own
task; one that has caught up is written straight to its socket by the fan-out task
(live/direct.py). One that falls `limit` deltas (or its socket's buffer) behind is dropped (its
socket closed with SLOW), never waited for.
"""

from __future__ import annotations

import asyncio
from collections import Counter, deque
from collections.abc import Callable

from tableside.live.channels import DOCUMENT
from tableside.live.direct import DirectWriter

SLOW = 4503  # close code: too far behind; reconnect with `after=` (the client does)
BUSY = 4429  # close code: too many live sockets from this client address
SLICE = 64  # subscribers handed a delta between two yields to the event loop


class Subscriber:
    """One socket's deltas: queued (position, bytes) while its task catches up, then written
    straight to the socket (`go_direct`); `drop` closes it when it falls behind."""

    __slots__ = ("direct", "drop", "dropped", "last", "queue", "ready")

    def __init__(self, drop: Callable[[], object]) -> None:
        self.queue: deque[tuple[int, bytes]] = deque()
        self.ready: asyncio.Future[None] | None = None
        self.direct: DirectWriter | None = None
        self.last = 0  # the last position its socket was sent (once direct)
        self.drop = drop
        self.dropped = False

    def offer(self, position: int, data: bytes, bounds: Audience) -> None:
        """Write or queue one delta; past the audience's bounds, drop the subscriber."""
        if self.dropped:
            return
        if self.direct is not None:
            self._write(position, data, bounds.behind_bytes)
        elif len(self.queue) >= bounds.limit:
            self._fall_behind()
        else:
            self.queue.append((position, data))
            if self.ready is not None and not self.ready.done():
                self.ready.set_result(None)

    def _write(self, position: int, data: bytes, behind_bytes: int) -> None:
        if position != DOCUMENT:
            if position <= self.last:  # already sent in its catch-up
                return
            self.last = position
        if not self.direct.write(data, behind_bytes):
            self._fall_behind()

    def _fall_behind(self) -> None:
        self.dropped = True
        self.queue.clear()
        self.drop()

    def go_direct(self, writer: DirectWriter, last: int) -> bool:
        """From now on the fan-out writes to the socket itself — if nothing waits in the queue
        (checked and switched without a pause, so no delta can slip between)."""
        if self.queue or self.dropped:
            return False
        self.direct, self.last = writer, last
        return True

    async def take(self) -> list[tuple[int, bytes]]:
        """Everything queued, waiting until something is."""
        while not self.queue:
            self.ready = asyncio.get_running_loop().create_future()
            await self.ready
        self.ready = None
        items = list(self.queue)
        self.queue.clear()
        return items


class Audience:
    """The process's live subscribers and the one task that fans deltas out to them."""

    def __init__(self, limit: int = 512, per_client: int = 200) -> None:
        self.limit, self.per_client = limit, per_client
        self.behind_bytes = 256 * 1024  # a direct subscriber's unsent bytes before it is dropped
        self.channels: dict[str, set[Subscriber]] = {}
        self.clients: Counter[str] = Counter()
        self.pending: deque[tuple[int, bytes, list[str]]] = deque()
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

    def publish(self, position: int, data: bytes, channels: list[str]) -> None:
        """Queue one delta (its encoded JSON) for its channels; returns at once."""
        self.pending.append((position, data, channels))
        self.position = max(self.position, position)
        self.wake.set()

    async def run(self) -> None:
        """Hand each published delta to its subscribers, in order, yielding every SLICE."""
        while True:
            await self.wake.wait()
            self.wake.clear()
            while self.pending:
                position, data, names = self.pending.popleft()
                handed = 0
                for name in names:
                    for sub in list(self.channels.get(name, ())):
                        sub.offer(position, data, self)
                        handed += 1
                        if handed % SLICE == 0:
                            await asyncio.sleep(0)
                self.delivered += handed
                await asyncio.sleep(0)
