"""The process's publisher: handed each batch of the log first by the one tail loop
(`eventlog.runner.Tail.add_first`), it publishes the batch's deltas on the reader's
connection before any read model takes it. No timer: the tail is woken by every NOTIFY."""

from __future__ import annotations

from tableside.eventlog.runner import Db
from tableside.eventlog.source import Record, head
from tableside.live.audience import Audience
from tableside.live.channels import Renderer, Watcher, everyone, render_all

# The ring's start-up fill (live/ring.py): the position RING_SIZE events before the head.
_RING_START = (
    "SELECT coalesce(min(notification_id) - 1, 0) FROM (SELECT notification_id "
    "FROM stored_events ORDER BY notification_id DESC LIMIT $1) AS last"
)


class Hub:
    """Publishes every stored event a slice renders, in position order, to its channels.

    It starts RING_SIZE events before the head of the log, rendering those into its ring only
    (live/ring.py: a socket resuming after a restart gets its gap from memory), and keeps its
    position in memory: nothing is tracked in the database. It renders every event, whether
    or not somebody listens to its channels, so the ring is complete. Publishing never waits
    (the audience queues; a subscriber too far behind is dropped, never waited for), so the
    tail's reader can wait for it."""

    def __init__(
        self, audience: Audience, renderers: list[Renderer], watchers: list[Watcher]
    ) -> None:
        self.audience, self.renderers, self.watchers = audience, renderers, watchers
        self.published: int | None = None
        self.started = 0  # the head of the log when the hub started: the ring's fill ends there

    async def position(self, conn) -> int:
        """The last position published (when the hub starts: RING_SIZE events before the
        head, the ring's fill; with nothing to fill, the ring is ready at once)."""
        if self.published is None:
            ring = self.audience.ring
            self.started = await head(conn)
            self.published = await conn.fetchval(_RING_START, ring.size)
            ring.begin(self.published)
            self.audience.position = max(self.audience.position, self.started)
            if self.published >= self.started:
                ring.ready.set()
        return self.published

    async def take(self, db: Db, records: list[Record]) -> None:
        """Publish a batch, each delta encoded once (the same text goes to every subscriber
        of every channel it belongs to); the start-up fill goes to the ring only."""
        audience = self.audience
        for watch in self.watchers:
            watch(self.published or 0, records)
        async with db() as conn:
            messages = await render_all(self.renderers, conn, records, everyone)
        for m in messages:
            if m.position <= self.started:
                audience.ring.add(m.position, m.text, m.channels)
            else:
                audience.publish(m.position, m.text, m.channels, m.reshapes)
        self.published = records[-1].position
        audience.position = max(audience.position, self.published)
        audience.ring.reach(self.published)
        if self.published >= self.started:
            audience.ring.ready.set()
