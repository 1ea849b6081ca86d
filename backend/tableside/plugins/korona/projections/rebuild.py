"""Empty a projection's tables and fold it again from position 0 — in one transaction.

A rebuild and the running projection runners (of any process) meet on the tracking rows:
the rebuild locks its projections' rows (`FOR UPDATE`) first and keeps them locked while it
empties the tables (DELETE, so readers keep the old rows until it commits) and folds every
event stored up to the end; a runner's next batch waits on the row lock and then applies
only what lies after the rebuild's position. Readers never see half a read model, and what
a finished rebuild reports is exactly a fold from zero up to its position.
"""

from __future__ import annotations

from collections.abc import Callable

import asyncpg

from tableside.eventlog import EventRegistry
from tableside.eventlog.collector import bulk_fold
from tableside.eventlog.runner import reset
from tableside.plugins.korona.projections import all_projections
from tableside.plugins.korona.projections.runner import ProjectionRunner

# A rebuild reads and writes in larger batches than the live tail (fewer round trips; the
# read models are written once per match per batch).
REBUILD_BATCH = 5000


def select(names: list[str] | None) -> list:
    """The projections called `names` (all when empty); unknown names raise ValueError."""
    known = {p.name: p for p in all_projections()}
    unknown = sorted(set(names or ()) - set(known))
    if unknown:
        raise ValueError(f"not a projection: {', '.join(unknown)}; known: {', '.join(known)}")
    # In the runner's order, whatever order they were named in: both lock the rows alike.
    return [p for p in known.values() if not names or p.name in names]


async def rebuild(
    pool: asyncpg.Pool,
    reader: asyncpg.Connection,
    registry: EventRegistry,
    names: list[str] | None,
    progress: Callable[[int], None] | None = None,
) -> int:
    """Reset the chosen projections to 0 and fold them to the head, in one transaction,
    reading ahead on `reader` (a connection of its own: never a second one from the pool
    while holding the first, issue 28)."""
    projections = select(names)
    async with pool.acquire() as conn, conn.transaction():
        for projection in projections:  # the runner's order: both lock the rows alike
            await reset(conn, projection.name, projection.tables)
        runner = ProjectionRunner(pool, registry, projections, REBUILD_BATCH)
        with bulk_fold():
            return await runner.fold(conn, progress, reader)
