"""Read model `live`: one row per match with its live board (match_live)."""

from __future__ import annotations

import asyncpg

from tableside.plugins.korona.projections.base import Item, last_per_match, to_json
from tableside.plugins.korona.views import live_doc, status

_UPSERT = """
INSERT INTO match_live (match_id, table_no, competition_id, status, version, position,
                        updated_at, doc)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb)
ON CONFLICT (match_id) DO UPDATE SET table_no = EXCLUDED.table_no,
    competition_id = EXCLUDED.competition_id, status = EXCLUDED.status,
    version = EXCLUDED.version, position = EXCLUDED.position,
    updated_at = EXCLUDED.updated_at, doc = EXCLUDED.doc
"""


class LiveProjection:
    """Upserts the live document of every match an event touched."""

    name = "live"
    tables = ("match_live",)

    async def apply(self, conn: asyncpg.Connection, items: list[Item]) -> None:
        """Write the newest live document per match."""
        rows = [
            (
                v.match_id,
                v.table,
                v.competition_id or None,
                status(v),
                v.version,
                v.position,
                v.updated_at,
                to_json(live_doc(v)),
            )
            for v in last_per_match(items)
        ]
        await conn.executemany(_UPSERT, rows)
