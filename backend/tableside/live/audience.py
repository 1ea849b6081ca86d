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
import time
from collections import Counter, deque
from collections.abc import Callable, Sequence

from tableside.live.channels import DOCUMENT
from tableside.live.direct import DirectWriter, text_frame
from tableside.live.flights import Flights, ReadAfter
from tableside.live.ring import Ring

SLOW = 4503  # close code: too far behind; reconnect with `after=` (the client does)
BUSY = 4429  # close code: too many live sockets from this client address
FRESH = 256  # positions a cached snapshot may lag the hub's head before it is built again
DOCUMENT_SECONDS = 2.0  # how long a channel's documents read by its opener are served
SLICE = 64  # subscribers handed a delta between two yields to the event loop
GROUP = 32  # deltas of one channel written to a direct subscriber in one go, at most


class Group:
    """A channel's next deltas in order, with their websocket frames (made once per delta for
    every channel and socket) and the last position among them."""

    __slots__ = ("_framed", "end", "frames", "items")

    def __init__(self) -> None:
        self.items: list[tuple[int, bytes]] = []
        self.frames: list[bytes] = []
        self._framed: bytes | None = None
        self.end = DOCUMENT

    def add(self, position: int, data: bytes, frame: bytes) -> None:
        self.items.append((position, data))
        self.frames.append(frame)
        self.end = max(self.end, position)

    def after(self, last: int) -> tuple[bytes, list[bytes], int]:
        """The frames (joined) and texts a socket that was sent `last` still needs, and its
        new last position; the whole group's frames are joined once."""
        fresh = [k for k, (p, _) in enumerate(self.items) if p == DOCUMENT or p > last]
        if len(fresh) == len(self.items):
            self._framed = self._framed or b"".join(self.frames)
            framed = self._framed
        else:
            framed = b"".join(self.frames[k] for k in fresh)
        return framed, [self.items[k][1] for k in fresh], max(last, self.end)


class Subscriber:
    """One socket's deltas: queued (position, bytes) while its task catches up, then written
    straight to the socket (`go_direct`); `drop` closes it when it falls behind."""

    __slots__ = ("direct", "drop", "dropped", "last", "queue", "ready")

    def __init__(self, drop: Callable[[], object]) -> None:
        self.queue: list[tuple[int, bytes]] = []  # a list: most sockets never queue for long
        self.ready: asyncio.Future[None] | None = None
        self.direct: DirectWriter | None = None
        self.last = 0  # the last position its socket was sent (once direct)
        self.drop = drop
        self.dropped = False

    def offer(self, group: Group, bounds: Audience) -> None:
        """Write or queue a channel's deltas; past the audience's bounds, drop the subscriber."""
        if self.dropped:
            return
        if self.direct is not None:
            framed, texts, self.last = group.after(self.last)
            if texts and not self.direct.write(framed, texts, bounds.behind_bytes):
                self._fall_behind()
        elif len(self.queue) + len(group.items) > bounds.limit:
            self._fall_behind()
        else:
            self.queue.extend(group.items)
            if self.ready is not None and not self.ready.done():
                self.ready.set_result(None)

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
        items, self.queue = self.queue, []
        return items


def _stale_documents(documents: tuple[float, bytes | None]) -> bool:
    """A channel's documents (read by its opener, or published) are read again after
    DOCUMENT_SECONDS: another node may have written newer ones."""
    return time.monotonic() - documents[0] > DOCUMENT_SECONDS


class Audience:
    """The process's live subscribers and the one task that fans deltas out to them; the
    hub's ring of recent deltas (live/ring.py) and the channels' cached snapshots and
    documents (live/flights.py), so that a socket's connect needs no database connection."""

    def __init__(self, limit: int = 512, per_client: int = 200) -> None:
        self.limit, self.per_client = limit, per_client
        self.behind_bytes = 256 * 1024  # a direct subscriber's unsent bytes before it is dropped
        self.channels: dict[str, set[Subscriber]] = {}
        self.clients: Counter[str] = Counter()
        self.pending: deque[tuple[int, bytes, Sequence[str]]] = deque()
        self.wake = asyncio.Event()
        self.position = 0  # the last position published (the hub's head)
        self.delivered = 0
        # Spectators' sockets open with no task of their own (live/detached.py): the fast
        # path's mark, `/health`'s `live.detached` (decision 0212).
        self.detached = 0
        self.ring = Ring()
        # (position, snapshot) per channel, served while the ring holds what followed it
        self.snapshots: Flights[tuple[int, bytes]] = Flights(self._stale_snapshot)
        # (monotonic time, documents) per channel: published ones replace read ones
        self.documents: Flights[tuple[float, bytes | None]] = Flights(_stale_documents)
        # the log's head read after a socket came: what its caught_up waits for
        self.heads: ReadAfter[int] = ReadAfter()

    def _stale_snapshot(self, snapshot: tuple[int, bytes]) -> bool:
        position = snapshot[0]
        return not self.ring.covers(position) or self.ring.head - position > FRESH

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

    def counts(self) -> dict[str, int]:
        """This process's open live sockets, and how many the fast path serves with no task
        (`/health`'s `live`: spectators connected and none detached is the fast path off)."""
        return {"sockets": sum(self.clients.values()), "detached": self.detached}

    def subscribe(self, channel: str, drop: Callable[[], object]) -> Subscriber:
        sub = Subscriber(drop)
        self.channels.setdefault(channel, set()).add(sub)
        return sub

    def unsubscribe(self, channel: str, sub: Subscriber) -> None:
        """Forget a subscriber; a fan-out slice already holding it offers it nothing more
        (its handler has returned: nothing may cancel that task now)."""
        sub.dropped = True
        subs = self.channels.get(channel)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self.channels[channel]

    def publish(
        self, position: int, data: bytes, channels: Sequence[str], reshapes: bool = False
    ) -> None:
        """Queue one delta (its encoded JSON) for its channels; returns at once. One that
        `reshapes` its channels' snapshots drops their cached ones."""
        self.pending.append((position, data, channels))
        if reshapes:
            for name in channels:
                self.snapshots.forget(name)
        if position == DOCUMENT:
            for name in channels:
                self.documents.put(name, (time.monotonic(), data))
        else:
            self.ring.add(position, data, channels)
            self.position = max(self.position, position)
        self.wake.set()

    def _groups(self) -> dict[str, Group]:
        """The next deltas waiting, up to GROUP per channel, by channel, in order."""
        groups: dict[str, Group] = {}
        while self.pending:
            position, data, names = self.pending[0]
            if any(len(groups[n].items) >= GROUP for n in names if n in groups):
                break
            self.pending.popleft()
            frame = text_frame(data)
            for name in names:
                if name in self.channels:
                    groups.setdefault(name, Group()).add(position, data, frame)
        return groups

    async def run(self) -> None:
        """Hand the published deltas to their subscribers, in order, yielding every SLICE."""
        while True:
            await self.wake.wait()
            self.wake.clear()
            while self.pending:
                for name, group in self._groups().items():
                    for handed, sub in enumerate(list(self.channels.get(name, ())), 1):
                        sub.offer(group, self)
                        self.delivered += len(group.items)
                        if handed % SLICE == 0:
                            await asyncio.sleep(0)
                await asyncio.sleep(0)
