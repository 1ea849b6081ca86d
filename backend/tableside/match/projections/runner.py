"""The match read models as one consumer of the process's tail loop (`eventlog.runner.Tail`):
each match event folded once, every projection written with its tracking row."""

from __future__ import annotations

from collections.abc import Callable

import asyncpg

from tableside.eventlog import EventRegistry
from tableside.eventlog.runner import follow
from tableside.eventlog.source import Record
from tableside.match.projections.base import Item, Projection
from tableside.match.projections.folder import Folder

_POSITIONS = "SELECT name, position FROM projection_tracking WHERE name = any($1::text[])"
# Locked in the runner's order of projections, as a rebuild locks them: never a deadlock.
_LOCK = """
SELECT name, position FROM projection_tracking WHERE name = any($1::text[])
ORDER BY array_position($1::text[], name) FOR UPDATE
"""
_SAVE = "UPDATE projection_tracking SET position = $2 WHERE name = any($1::text[])"


class ProjectionRunner:
    """The match read models, as one consumer of the tail; several processes on one database
    serialise on the tracking rows."""

    def __init__(
        self,
        pool: asyncpg.Pool,
        registry: EventRegistry,
        projections: list[Projection],
        batch: int = 500,
    ) -> None:
        self.pool, self.registry, self.projections = pool, registry, projections
        self.folder = Folder(registry)
        self.batch = batch

    async def catch_up(self, progress: Callable[[int], None] | None = None) -> int:
        """Apply everything stored so far; return the position reached."""
        async with self.pool.acquire() as conn:
            return await self.fold(conn, progress)

    async def fold(
        self,
        conn: asyncpg.Connection,
        progress: Callable[[int], None] | None = None,
        reader: asyncpg.Connection | None = None,
    ) -> int:
        """catch_up on one connection (a rebuild runs it inside its own transaction, reading
        ahead on a second one)."""
        return await follow(conn, self.registry, [self], self.batch, progress, reader)

    async def position(self, conn: asyncpg.Connection) -> int:
        """The slowest of its projections."""
        rows = await conn.fetch(_POSITIONS, [p.name for p in self.projections])
        return min((r["position"] for r in rows), default=0)

    async def take(self, conn: asyncpg.Connection, records: list[Record]) -> None:
        """Fold each match event once; write every projection and its tracking row in one
        transaction, skipping what another process applied meanwhile."""
        items = [
            (rec, view)
            for rec in records
            if (view := await self.folder.advance(conn, rec)) is not None
        ]
        last = records[-1].position
        names = [p.name for p in self.projections]
        async with conn.transaction():
            done = {r["name"]: r["position"] for r in await conn.fetch(_LOCK, names)}
            behind = [p for p in self.projections if p.name in done and done[p.name] < last]
            for projection in behind:
                await _apply(conn, projection, items, done[projection.name])
            if behind:
                await conn.execute(_SAVE, [p.name for p in behind], last)


async def _apply(
    conn: asyncpg.Connection, projection: Projection, items: list[Item], done: int
) -> None:
    """The rows of the items after `done` (the tracking row is locked by the caller)."""
    fresh = [item for item in items if item[0].position > done]
    if fresh:
        await projection.apply(conn, fresh)
