"""The kept venue events (decision 0165) read back as the venue's RawRecords, and decoded
with the venue's own event registry, exactly as the venue reads its store."""

from __future__ import annotations

from functools import cache
from uuid import UUID

import asyncpg

from tableside.eventlog import EventRegistry
from tableside.eventlog.records import RawRecord
from tableside.plugins.house import build_registry

KEPT_COLUMNS = (
    "stream_id, version, position, type_name, payload, recorded_at, command_id, meta,"
    " prev_hash, hash, global_hash"
)
BATCH = 2000


@cache
def registry() -> EventRegistry:
    """The venue's registry: every event type a venue's store may hold (decision 0173)."""
    return build_registry()


async def kept_after(
    conn: asyncpg.Connection, venue_id: UUID, position: int, limit: int = BATCH
) -> list[RawRecord]:
    """The venue's kept events after `position`, in order, at most `limit`."""
    rows = await conn.fetch(
        f"SELECT {KEPT_COLUMNS} FROM venue_events WHERE venue_id = $1 AND position > $2"
        " ORDER BY position LIMIT $3",
        venue_id,
        position,
        limit,
    )
    return [_raw(row) for row in rows]


async def kept_stream(conn: asyncpg.Connection, venue_id: UUID, stream_id: UUID) -> list[RawRecord]:
    """Every kept event of one of the venue's streams, in version order."""
    rows = await conn.fetch(
        f"SELECT {KEPT_COLUMNS} FROM venue_events WHERE venue_id = $1 AND stream_id = $2"
        " ORDER BY version",
        venue_id,
        stream_id,
    )
    return [_raw(row) for row in rows]


async def venues(conn: asyncpg.Connection) -> list[UUID]:
    """Every enrolled venue."""
    rows = await conn.fetch("SELECT venue_id FROM venues ORDER BY venue_id")
    return [row["venue_id"] for row in rows]


def _raw(row: asyncpg.Record) -> RawRecord:
    return RawRecord(
        row["stream_id"],
        row["version"],
        row["position"],
        row["type_name"],
        bytes(row["payload"]),
        row["recorded_at"],
        row["command_id"],
        row["meta"],
        bytes(row["prev_hash"]),
        bytes(row["hash"]),
        bytes(row["global_hash"]),
    )
