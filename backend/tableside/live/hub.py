"""The process's publisher: a consumer of the one tail loop, after the read models, that
publishes every new event's deltas (one read of the log per batch for both)."""

from __future__ import annotations

import asyncpg

from tableside.eventlog.source import Record, head
from tableside.live.channels import Renderer, render_all
from tableside.web.context import Context


class Hub:
    """Publishes every stored event a slice renders, in position order, to its channels.

    It starts at the head of the log (a socket gets older events from its snapshot or
    replay) and keeps its position in memory: nothing is tracked in the database."""

    def __init__(self, ctx: Context, renderers: list[Renderer]) -> None:
        self.ctx = ctx
        self.renderers = renderers
        self.published: int | None = None

    async def position(self, conn: asyncpg.Connection) -> int:
        """The last position published (the head of the log when the hub starts)."""
        if self.published is None:
            self.published = await head(conn)
            self.ctx.audience.position = max(self.ctx.audience.position, self.published)
        return self.published

    async def take(self, conn: asyncpg.Connection, records: list[Record]) -> None:
        """Publish a batch, each delta encoded once for every channel that listens (the same
        text goes to every subscriber of every channel it belongs to)."""
        audience = self.ctx.audience
        for watch in self.ctx.live.watchers:
            watch(self.published or 0, records)
        for m in await render_all(self.renderers, conn, records, audience.listens):
            audience.publish(m.position, m.text, m.channels)
        self.published = records[-1].position
        audience.position = max(audience.position, self.published)
