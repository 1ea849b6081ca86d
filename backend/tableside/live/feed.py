"""Live-feed messages: subscription filters, control messages and gap replay."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import asyncpg
import msgspec

from tableside.eventlog import EventRegistry
from tableside.eventlog.source import read_after
from tableside.live.channels import LiveChannels, render_all

_encoder = msgspec.json.Encoder()


@dataclass(frozen=True, slots=True)
class Filter:
    """What a socket subscribed to: one match, one table, one competition, or the hall."""

    kind: str  # match | table | competition | hall
    value: str

    @property
    def channel(self) -> str:
        """The in-memory channel carrying exactly these deltas."""
        return f"{self.kind}:{self.value}"


def encode(message: dict[str, Any]) -> bytes:
    """JSON text of a control message (snapshot, caught_up, error)."""
    return _encoder.encode(message)


async def gap(
    pool: asyncpg.Pool, registry: EventRegistry, live: LiveChannels, flt: Filter, after: int
) -> AsyncIterator[list[tuple[int, bytes]]]:
    """Every message of the subscription after `after`, from the database, in chunks in order,
    rendered by fresh renderers of every slice.

    A connection is held only while a chunk is read, never while a slow client is sent to.
    """
    renderers = live.followers(registry)
    stream = UUID(flt.value) if flt.kind == "match" else None
    while True:
        async with pool.acquire() as conn:
            records = await read_after(conn, registry, after, 500, stream)
            messages = await render_all(renderers, conn, records)
        if not records:
            return
        yield [(m.position, m.text) for m in messages if flt.channel in m.channels]
        after = records[-1].position
