"""Read model `history`: every match event as a plain-language line (match_history)."""

from __future__ import annotations

import asyncpg

from tableside.match.history import line
from tableside.match.projections.base import Item

_INSERT = """
INSERT INTO match_history (match_id, version, position, type, rule, text, recorded_at)
VALUES ($1, $2, $3, $4, $5, $6, $7)
"""


class HistoryProjection:
    """Appends one line per event."""

    name = "history"
    tables = ("match_history",)

    async def apply(self, conn: asyncpg.Connection, items: list[Item]) -> None:
        """Insert a line for every item."""
        rows = [
            (rec.stream_id, rec.version, rec.position, rec.type, *line(rec.event), rec.recorded_at)
            for rec, _ in items
        ]
        await conn.executemany(_INSERT, rows)
