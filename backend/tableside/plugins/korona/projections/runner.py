"""The match read models as one consumer of the process's tail loop (`eventlog.runner.Tail`):
each match event folded once, every projection written with its tracking row."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import asyncpg

from tableside.eventlog import EventRegistry
from tableside.eventlog.folder import MISS, Folder
from tableside.eventlog.runner import Db, follow
from tableside.eventlog.source import Record
from tableside.plugins.korona.projections.base import Item, Projection
from tableside.plugins.korona.projections.folder import match_folder

_POSITIONS = "SELECT name, position FROM projection_tracking WHERE name = any($1::text[])"
# Locked in the runner's order of projections, as a rebuild locks them: never a deadlock.
_LOCK = """
SELECT name, position FROM projection_tracking WHERE name = any($1::text[])
ORDER BY array_position($1::text[], name) FOR UPDATE
"""
YIELD_EVERY = 200  # events folded between two yields while a batch is being written
_SAVE = "UPDATE projection_tracking SET position = $2 WHERE name = any($1::text[])"
# A batch with nothing for the read models moves their tracking on without a transaction:
# everything before it was applied (a lane takes its batches in order), and `greatest` never
# takes a row back that another process or a rebuild moved further.
MOVE_ON = (
    "UPDATE projection_tracking SET position = greatest(position, $2) WHERE name = any($1::text[])"
)


class ProjectionRunner:
    """The match read models, as one consumer of the tail; several processes on one database
    serialise on the tracking rows."""

    def __init__(
        self,
        pool: asyncpg.Pool,
        registry: EventRegistry,
        projections: list[Projection],
        batch: int = 500,
        folder: Folder | None = None,
    ) -> None:
        self.pool, self.registry, self.projections = pool, registry, projections
        self.folder = folder or match_folder(registry)  # the process's one (the hub's too)
        self.batch = batch
        self._pipelined = False  # a rebuild: write one batch while the next one folds
        self._writing: asyncio.Future | None = None

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
        ahead on a second one, and folds each batch while the one before is written)."""
        self._pipelined = reader is not None
        try:
            return await follow(conn, self.registry, [self], self.batch, progress, reader)
        finally:
            self._pipelined = False
            await self._settle()

    async def position(self, conn: asyncpg.Connection) -> int:
        """The slowest of its projections."""
        rows = await conn.fetch(_POSITIONS, [p.name for p in self.projections])
        return min((r["position"] for r in rows), default=0)

    async def take(self, db: Db, records: list[Record]) -> None:
        """Fold each match event once; write every projection and its tracking row in one
        transaction, skipping what another process applied meanwhile."""
        async with db() as conn:
            await self._take(conn, records)

    async def _take(self, conn: asyncpg.Connection, records: list[Record]) -> None:
        """`take` on the connection it was given (pipelined: the write goes on after it)."""
        items = await self._fold(conn, records)
        await self._settle()  # the batch before (pipelined), so the connection is free
        write = self._write(conn, items, records[-1].position)
        if self._pipelined:
            self._writing = asyncio.ensure_future(write)
        else:
            await write

    async def _fold(self, conn: asyncpg.Connection, records: list[Record]) -> list[Item]:
        """Each match event folded; pipelined, the loop yields now and then so the batch
        being written sends its next statement meanwhile."""
        items = []
        step = self.folder.step
        for i, rec in enumerate(records, 1):
            view = step(rec)
            if view is MISS:
                view = await self.folder.advance(conn, rec, self._settle)
            if view is not None:
                items.append((rec, view))
            if self._writing is not None and i % YIELD_EVERY == 0:
                await asyncio.sleep(0)
        return items

    async def _settle(self) -> None:
        """Wait until the batch being written is (a fold that must read the stream waits too)."""
        writing, self._writing = self._writing, None
        if writing is not None:
            await writing

    async def _write(self, conn: asyncpg.Connection, items: list[Item], last: int) -> None:
        """Every projection behind `last` gets the items after its position, and moves on."""
        names = [p.name for p in self.projections]
        if not items:  # nothing to write: move on, one round trip (see `MOVE_ON`)
            await conn.execute(MOVE_ON, names, last)
            return
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
    fresh = (
        items
        if items and items[0][0].position > done
        else [i for i in items if i[0].position > done]
    )
    if fresh:
        await projection.apply(conn, fresh)
