"""Empty a projection's tables and fold it again from position 0."""

from __future__ import annotations

from collections.abc import Callable

import asyncpg

from tableside.projections import all_projections
from tableside.projections.runner import ProjectionRunner
from tableside.store import EventRegistry


def select(names: list[str] | None) -> list:
    """The projections called `names` (all when empty); unknown names raise ValueError."""
    known = {p.name: p for p in all_projections()}
    unknown = sorted(set(names or ()) - set(known))
    if unknown:
        raise ValueError(f"unknown projection(s) {', '.join(unknown)}; known: {', '.join(known)}")
    return [known[n] for n in names] if names else list(known.values())


async def rebuild(
    pool: asyncpg.Pool,
    registry: EventRegistry,
    names: list[str] | None,
    progress: Callable[[int], None] | None = None,
) -> int:
    """Reset the chosen projections to 0 (rows and tracking together), then catch them up."""
    projections = select(names)
    async with pool.acquire() as conn, conn.transaction():
        for projection in projections:
            await conn.fetchval(
                "SELECT position FROM projection_tracking WHERE name = $1 FOR UPDATE",
                projection.name,
            )
            for table in projection.tables:
                await conn.execute(f"TRUNCATE {table}")
            await conn.execute(
                "UPDATE projection_tracking SET position = 0 WHERE name = $1", projection.name
            )
    return await ProjectionRunner(pool, registry, projections).catch_up(progress)
