"""Read model `tables`: what each table is playing now (table_overview)."""

from __future__ import annotations

import asyncpg

from tableside.match.events import MatchScheduled
from tableside.plugins.korona.projections.base import Item, to_json
from tableside.plugins.korona.views import live_doc, status

# A newly scheduled match takes the table; later events of an older match leave it alone.
_UPSERT = """
INSERT INTO table_overview (table_no, match_id, competition_id, status, position, updated_at, doc)
VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb)
ON CONFLICT (table_no) DO UPDATE SET match_id = EXCLUDED.match_id,
    competition_id = EXCLUDED.competition_id, status = EXCLUDED.status,
    position = EXCLUDED.position, updated_at = EXCLUDED.updated_at, doc = EXCLUDED.doc
WHERE table_overview.match_id = EXCLUDED.match_id OR $8
"""

# A moved match leaves the table it was on (decision 0207), unless a newer match took it.
_LEFT = "DELETE FROM table_overview WHERE table_no = $1 AND match_id = $2"


class TablesProjection:
    """Keeps one row per table with the live document of its current match."""

    name = "tables"
    tables = ("table_overview",)

    async def apply(self, conn: asyncpg.Connection, items: list[Item]) -> None:
        """Apply in order: scheduling takes a table, other events update its match. The view
        rides in the doc's place until the batch is collapsed: only surviving rows render."""
        rows = [
            (
                v.table,
                v.match_id,
                v.competition_id or None,
                None,  # status, rendered with the doc for surviving rows only
                v.position,
                v.updated_at,
                v,
                isinstance(rec.event, MatchScheduled),
            )
            for rec, v in items
            if v.table is not None
        ]
        rendered = [
            (*row[:3], status(row[6]), *row[4:6], to_json(live_doc(row[6])), row[7])
            for row in effective(rows)
        ]
        await conn.executemany(_UPSERT, rendered)
        left = [
            (rec.event.moved_from, v.match_id)
            for rec, v in items
            if isinstance(rec.event, MatchScheduled) and rec.event.moved_from
        ]
        if left:
            await conn.executemany(_LEFT, left)


def effective(rows: list[tuple]) -> list[tuple]:
    """The rows whose upserts, in order, leave the table as all of `rows` in order would:
    per table and match the last row, kept in order of first appearance (the first one may
    insert); a newly scheduled match (`force`) makes the table's earlier rows moot. One
    update per table and match per batch, not one per event (a rebuild in one transaction
    would otherwise walk ever longer version chains of the same few rows)."""
    out: dict[tuple, tuple] = {}
    for row in rows:
        table, match, force = row[0], row[1], row[7]
        if force:
            for key in [k for k in out if k[0] == table]:
                del out[key]
        prev = out.get((table, match))
        out[(table, match)] = row if prev is None else (*row[:7], prev[7] or force)
    return list(out.values())
