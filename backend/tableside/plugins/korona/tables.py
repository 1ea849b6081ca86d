"""What korona's read models tell the kernel, in its own SQL: the hall's tables its matches
hold (`table_overview`, the `tables` read model: the hall's calls, `match.tables_now`) and
its channels' snapshots (`match_live` and `table_overview`, for `live/live.py`), so the
kernel names none of its tables (tests/fitness/test_kernel_names_no_discipline_table.py)."""

from __future__ import annotations

from types import MappingProxyType

from tableside.match.discipline import Tables

TABLES = Tables(
    read_model="tables",
    holding="""
SELECT table_no, competition_id, doc->'side_a', doc->'side_b', doc->>'status',
       (doc->>'board')::int
FROM table_overview WHERE status IN ('scheduled', 'called', 'playing')
""",
    current="""
SELECT t.match_id, (t.doc->>'scheduled_position')::bigint, p.position
FROM projection_tracking p LEFT JOIN table_overview t ON t.table_no = $1
WHERE p.name = 'tables'
""",
)

# channel kind → (read model, its live documents for the channel's key $1)
SNAPSHOTS = MappingProxyType(
    {
        "match": ("live", "SELECT doc::text FROM match_live WHERE match_id = $1"),
        "table": ("tables", "SELECT doc::text FROM table_overview WHERE table_no = $1"),
        "hall": (
            "tables",
            "SELECT doc::text FROM table_overview WHERE $1 = 'all' ORDER BY table_no",
        ),
        "competition": (
            "live",
            "SELECT doc::text FROM match_live WHERE competition_id = $1 "
            "ORDER BY table_no NULLS LAST, match_id",
        ),
    }
)
