"""The process's publisher: reads new events after each NOTIFY and publishes their deltas."""

from __future__ import annotations

import asyncio

from tableside.eventlog.runner import keep_caught_up
from tableside.eventlog.source import head, read_after
from tableside.live.feed import encode_delta, routed
from tableside.match.projections.folder import Folder
from tableside.web.context import Context


class Hub:
    """Publishes every stored match event, in position order, to its in-memory channels."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.folder = Folder(ctx.registry)
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
                views = []
                for rec in records:
                    if (view := await self.folder.advance(conn, rec)) is not None:
                        views.append((rec, view))
                for rec, view, names in routed(views):
                    audience.publish(rec.position, encode_delta(rec, view).decode(), names)
                self.position = records[-1].position
                audience.position = max(audience.position, self.position)
