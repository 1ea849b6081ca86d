"""Read stored events on asyncpg, decoded into Records (what folds and feeds need of a row)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

import asyncpg

from tableside.eventlog import EventRegistry


@dataclass(frozen=True, slots=True)
class Record:
    """A decoded stored event: what folding and the live feed need of a row."""

    stream_id: UUID
    version: int
    position: int
    type: str
    event: object
    recorded_at: datetime


_COLUMNS = "originator_id, originator_version, notification_id, topic, state, recorded_at"
_AFTER = (
    f"SELECT {_COLUMNS} FROM stored_events WHERE notification_id > $1 "
    "ORDER BY notification_id LIMIT $2"
)
_AFTER_IN_STREAM = (
    f"SELECT {_COLUMNS} FROM stored_events WHERE notification_id > $1 "
    "AND originator_id = $3 ORDER BY notification_id LIMIT $2"
)
_STREAM = (
    f"SELECT {_COLUMNS} FROM stored_events WHERE originator_id = $1 "
    "AND originator_version <= $2 ORDER BY originator_version"
)
_HEAD = "SELECT coalesce(max(notification_id), 0) FROM stored_events"
_HASH = "SELECT hash FROM stored_events WHERE originator_id = $1 AND originator_version = $2"


def decode_rows(registry: EventRegistry, rows: list[asyncpg.Record]) -> list[Record]:
    """Rows of the _COLUMNS shape as Records."""
    return [Record(r[0], r[1], r[2], r[3], registry.decode(r[3], r[4]), r[5]) for r in rows]


async def read_after(
    conn: asyncpg.Connection,
    registry: EventRegistry,
    after: int,
    limit: int = 500,
    stream: UUID | None = None,
) -> list[Record]:
    """Up to `limit` events after a global position, optionally of one stream only."""
    if stream is None:
        rows = await conn.fetch(_AFTER, after, limit)
    else:
        rows = await conn.fetch(_AFTER_IN_STREAM, after, limit, stream)
    return decode_rows(registry, rows)


async def read_stream(
    conn: asyncpg.Connection, registry: EventRegistry, stream: UUID, up_to_version: int
) -> list[Record]:
    """One stream's events from version 1 to `up_to_version`."""
    return decode_rows(registry, await conn.fetch(_STREAM, stream, up_to_version))


async def head(conn: asyncpg.Connection) -> int:
    """The last global position (0 when the store is empty)."""
    return await conn.fetchval(_HEAD)


async def event_hash(conn: asyncpg.Connection, stream: UUID, version: int) -> str:
    """The stored hash (hex) of one event: of a stream's last, the head of its chain."""
    value = await conn.fetchval(_HASH, stream, version)
    return bytes(value).hex() if value is not None else ""
