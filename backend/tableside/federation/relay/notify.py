"""The hook `federation/keeping.keep` calls inside a kept push's transaction: the venue is
marked heard from, and every node is told (NOTIFY, delivered on commit, so a node never
reads a row that is not yet there) that the venue's held head moved. The payload is only a
wake-up — the venue and its head; the rows themselves are read from `venue_events`, the
one durable log (decision 0195)."""

from __future__ import annotations

from uuid import UUID

import asyncpg

CHANNEL = "federation_venue_events"
_SEEN = """
INSERT INTO venue_seen (venue_id, seen_at) VALUES ($1, now())
ON CONFLICT (venue_id) DO UPDATE SET seen_at = excluded.seen_at
"""


async def kept(conn: asyncpg.Connection, venue_id: UUID, head: int) -> None:
    """Mark the venue heard from and wake every node's relay (on commit)."""
    await conn.execute(_SEEN, venue_id)
    await conn.execute("SELECT pg_notify($1, $2)", CHANNEL, f"{venue_id} {head}")


def parse(payload: str) -> tuple[UUID, int] | None:
    """A notification's venue and head (None for anything else)."""
    try:
        venue, head = payload.split(" ")
        return UUID(venue), int(head)
    except ValueError:
        return None
