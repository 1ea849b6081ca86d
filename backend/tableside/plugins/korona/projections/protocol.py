"""Read model `protocol`: the match protocol per match (match_protocol)."""

from __future__ import annotations

import asyncpg

from tableside.plugins.korona.projections.base import Item, last_per_match, to_json
from tableside.plugins.korona.views import protocol_doc

_UPSERT = """
INSERT INTO match_protocol (match_id, version, position, signed, updated_at, doc)
VALUES ($1, $2, $3, $4, $5, $6::jsonb)
ON CONFLICT (match_id) DO UPDATE SET version = EXCLUDED.version,
    position = EXCLUDED.position, signed = EXCLUDED.signed,
    updated_at = EXCLUDED.updated_at, doc = EXCLUDED.doc
"""


class ProtocolProjection:
    """Upserts the protocol of every match an event touched."""

    name = "protocol"
    tables = ("match_protocol",)

    async def apply(self, conn: asyncpg.Connection, items: list[Item]) -> None:
        """Write the newest protocol per match."""
        rows = [
            (
                v.match_id,
                v.version,
                v.position,
                v.state.signed,
                v.updated_at,
                to_json(protocol_doc(v)),
            )
            for v in last_per_match(items)
        ]
        await conn.executemany(_UPSERT, rows)
