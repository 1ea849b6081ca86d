"""An event's level for the points table (decision 0170), set by the federation's registrar;
`open` until set. Changing it changes the points of everyone placed: the event's list is
recomputed (`project.recompute`)."""

from __future__ import annotations

from uuid import UUID

import asyncpg

from tableside.rule_error import RuleError

from .rules.points import LEVEL_FACTOR
from .rules.results import Level


class NoSuchEvent(RuleError):
    """The archive holds no such competition of that venue."""

    def __init__(self, stream_id: UUID) -> None:
        message = f"the archive holds no competition {stream_id} of that venue"
        super().__init__("decision 0170", message, "stream_id", "archive_no_event", {})


async def set_level(
    conn: asyncpg.Connection, venue_id: UUID, stream_id: UUID, level: Level, by: str
) -> None:
    """Grade one archived competition; NoSuchEvent when the archive does not hold it."""
    assert level in LEVEL_FACTOR  # the door's type already refused any other
    async with conn.transaction():
        if not await conn.fetchval(
            "SELECT 1 FROM archive_competitions WHERE venue_id = $1 AND stream_id = $2",
            venue_id,
            stream_id,
        ):
            raise NoSuchEvent(stream_id)
        await conn.execute(
            "INSERT INTO event_levels (venue_id, stream_id, level, set_by) VALUES ($1, $2, $3, $4)"
            " ON CONFLICT (venue_id, stream_id) DO UPDATE SET level = excluded.level,"
            " set_by = excluded.set_by, set_at = now()",
            venue_id,
            stream_id,
            level,
            by,
        )
