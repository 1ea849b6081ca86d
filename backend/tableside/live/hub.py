"""The process's publisher: reads new events after each NOTIFY and publishes their deltas."""

from __future__ import annotations

import asyncio

from tableside.eventlog.runner import keep_caught_up
from tableside.eventlog.source import head, read_after
from tableside.live.channels import render_all
from tableside.web.context import Context


class Hub:
    """Publishes every stored event a slice renders, in position order, to its channels."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.renderers = ctx.live.followers(ctx.registry)
        self.wake = asyncio.Event()
        self.position = 0

    async def run(self, poll_seconds: float = 1.0) -> None:
        """Start at the current head; publish whenever woken, and at least every poll."""
        async with self.ctx.pool.acquire() as conn:
            self.position = await head(conn)
        self.ctx.audience.position = self.position
        await keep_caught_up(self.catch_up, self.wake, poll_seconds, "live hub")

    async def catch_up(self) -> None:
        """Publish everything stored after the last published position, each delta encoded
        once: the same text goes to every subscriber of every channel it belongs to."""
        audience = self.ctx.audience
        async with self.ctx.pool.acquire() as conn:
            while records := await read_after(conn, self.ctx.registry, self.position, 500):
                for watch in self.ctx.live.watchers:
                    watch(self.position, records)
                messages = await render_all(self.renderers, conn, records, audience.listens)
                for m in messages:
                    audience.publish(m.position, m.text, m.channels)
                self.position = records[-1].position
                audience.position = max(audience.position, self.position)
