"""The process's publisher: handed each batch of the log first by the one tail loop
(`eventlog.runner.Tail.add_first`), it publishes the batch's deltas on the reader's
connection before any read model takes it. No timer: the tail is woken by every NOTIFY."""

from __future__ import annotations

from tableside.eventlog.runner import Db
from tableside.eventlog.source import Record, head
from tableside.live.audience import Audience
from tableside.live.channels import Renderer, Watcher, render_all


class Hub:
    """Publishes every stored event a slice renders, in position order, to its channels.

    It starts at the head of the log (a socket gets older events from its snapshot or replay)
    and keeps its position in memory: nothing is tracked in the database. Publishing never
    waits (the audience queues; a subscriber too far behind is dropped, never waited for), so
    the tail's reader can wait for it."""

    def __init__(
        self, audience: Audience, renderers: list[Renderer], watchers: list[Watcher]
    ) -> None:
        self.audience, self.renderers, self.watchers = audience, renderers, watchers
        self.published: int | None = None

    async def position(self, conn) -> int:
        """The last position published (the head of the log when the hub starts)."""
        if self.published is None:
            self.published = await head(conn)
            self.audience.position = max(self.audience.position, self.published)
        return self.published

    async def take(self, db: Db, records: list[Record]) -> None:
        """Publish a batch, each delta encoded once, only for the channels somebody listens
        to (the same text goes to every subscriber of every channel it belongs to)."""
        audience = self.audience
        for watch in self.watchers:
            watch(self.published or 0, records)
        async with db() as conn:
            messages = await render_all(self.renderers, conn, records, audience.listens)
        for m in messages:
            audience.publish(m.position, m.text, m.channels)
        self.published = records[-1].position
        audience.position = max(audience.position, self.published)
