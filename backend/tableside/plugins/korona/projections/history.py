"""Read model `history`: every match event as a plain-language line (match_history)."""

from __future__ import annotations

import asyncpg

from tableside.plugins.korona.history import line
from tableside.plugins.korona.projections.base import Item

_COLUMNS = ("match_id", "version", "position", "type", "rule", "text", "recorded_at")
_INSERT = f"""
INSERT INTO match_history ({", ".join(_COLUMNS)}) VALUES ($1, $2, $3, $4, $5, $6, $7)
"""
# From this many lines a batch goes by COPY (a rebuild's batches): one stream of rows instead
# of a statement each; the live tail's few lines keep the one-round-trip INSERT.
COPY_FROM = 200


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
        if len(rows) >= COPY_FROM:
            await conn.copy_records_to_table("match_history", records=rows, columns=_COLUMNS)
        else:
            await conn.executemany(_INSERT, rows)
