"""Command responses built from what is stored, so a retry gets the same bytes."""

from __future__ import annotations

from uuid import UUID

import asyncpg
import msgspec

from tableside.eventlog import AppendResult, CommandReused
from tableside.match.http.dto import CommandResponse, StoredEventOut

_BY_COMMAND = """
SELECT originator_id, originator_version, notification_id, topic, state, command_digest
FROM stored_events WHERE command_id = $1 ORDER BY notification_id
"""


async def stored_response(
    pool: asyncpg.Pool, command_id: UUID, digest: bytes | None = None
) -> CommandResponse | None:
    """The response of a stored command, or None if it was never stored; CommandReused when
    it was stored for a different command (another digest: schema/010)."""
    rows = await pool.fetch(_BY_COMMAND, command_id)
    if not rows:
        return None
    stored = rows[0][5]
    if digest is not None and stored is not None and bytes(stored) != digest:
        raise CommandReused(command_id)
    events = [StoredEventOut(r[1], r[2], r[3], msgspec.Raw(bytes(r[4]))) for r in rows]
    return CommandResponse(
        match_id=rows[0][0],
        command_id=command_id,
        first_version=rows[0][1],
        last_version=rows[-1][1],
        positions=[r[2] for r in rows],
        events=events,
    )


def fresh_response(result: AppendResult, command_id: UUID) -> CommandResponse:
    """The response of an append just made, from the bytes it stored (a retry reads the same
    bytes back with `stored_response`)."""
    versions = range(result.first_version, result.last_version + 1)
    events = [
        StoredEventOut(version, position, name, msgspec.Raw(payload))
        for version, position, (name, payload) in zip(
            versions, result.positions, result.payloads, strict=True
        )
    ]
    return CommandResponse(
        match_id=result.stream_id,
        command_id=command_id,
        first_version=result.first_version,
        last_version=result.last_version,
        positions=list(result.positions),
        events=events,
    )
