"""table_overview's batch collapse gives what one upsert per event would give."""

from __future__ import annotations

import random

from tableside.plugins.korona.projections.tables import effective


def _upserts(start: dict, rows: list[tuple]) -> dict:
    """The SQL of tables._UPSERT, row by row: insert, or update when same match or forced."""
    state = dict(start)
    for row in rows:
        table, match, force = row[0], row[1], row[7]
        if table not in state or state[table][1] == match or force:
            state[table] = row[:7]
    return state


def test_collapsed_batch_leaves_the_same_rows_as_every_event_in_order():
    rng = random.Random(7)
    for _ in range(2000):
        start = {t: (t, rng.randrange(3), *"abcde") for t in range(2) if rng.random() < 0.5}
        rows = [
            (rng.randrange(3), rng.randrange(3), "c", "s", i, "u", f"doc{i}", rng.random() < 0.2)
            for i in range(rng.randrange(12))
        ]
        assert _upserts(start, effective(rows)) == _upserts(start, rows)
