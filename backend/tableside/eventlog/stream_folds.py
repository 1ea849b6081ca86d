"""A read model that folds one kind of stream, as a consumer of the tail loop (`runner.Tail`).

`StreamFolds` advances each stream's value in a fold cache (`eventlog/folder.py`: its own, or
the process's one for those streams, which the live feed's renderer shares — each event folded
once per process), refolded from the database on a miss, and after each batch writes every
stream the batch touched with its one tracking row, in one transaction holding that row `FOR
UPDATE` (the discipline of every read model: several processes and a rebuild serialise on it).
A slice gives it its `StreamFold` (the event types it folds, `advance(value | None, record)`)
and `write(conn, stream, version, value, position)` as a `ReadModel`; `rebuild_folds` empties
its tables and folds them again from 0 in one transaction, like the korona read models'
rebuild (`plugins/korona/projections/rebuild.py`).
"""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar
from uuid import UUID

import asyncpg

from tableside.eventlog import EventRegistry
from tableside.eventlog.collector import bulk_fold
from tableside.eventlog.folder import Folder, StreamFold
from tableside.eventlog.runner import Db, follow, reset
from tableside.eventlog.source import Record

T = TypeVar("T")
Write = Callable[[asyncpg.Connection, UUID, int, T, int], Awaitable[Any]]

_POSITION = "SELECT position FROM projection_tracking WHERE name = $1"
_LOCK = "SELECT position FROM projection_tracking WHERE name = $1 FOR UPDATE"
_SAVE = "UPDATE projection_tracking SET position = $2 WHERE name = $1"
_MOVE_ON = "UPDATE projection_tracking SET position = greatest(position, $2) WHERE name = $1"


@dataclass(frozen=True)
class ReadModel(Generic[T]):
    """What a slice says of its read model: its tracking name, its tables, what it folds (the
    event types, how one record advances a stream's value), and how a stream's value is
    written."""

    name: str
    tables: tuple[str, ...]
    fold: StreamFold[T]
    write: Write[T]


class StreamFolds(Generic[T]):
    """The read model `model` of the streams whose events are `model.fold.types`."""

    def __init__(
        self,
        pool: asyncpg.Pool,
        registry: EventRegistry,
        model: ReadModel[T],
        batch: int = 500,
        folder: Folder[T] | None = None,
    ) -> None:
        self.pool, self.registry, self.batch = pool, registry, batch
        self.model = model
        self.name, self.tables, self.types = model.name, model.tables, model.fold.types
        # The process's one folder of these streams, or its own (every stream, as long as the
        # process runs: a read model of its own folds each stream once).
        self.folder = folder or Folder(registry, model.fold, size=sys.maxsize)
        if self.folder.fold != model.fold:
            raise ValueError(f"read model {self.name} handed a folder of other streams")

    async def catch_up(self, progress: Callable[[int], None] | None = None) -> int:
        """Apply everything stored so far; return the position reached."""
        async with self.pool.acquire() as conn:
            return await self.fold(conn, progress)

    async def fold(
        self, conn: asyncpg.Connection, progress: Callable[[int], None] | None = None
    ) -> int:
        """catch_up on one connection (a rebuild runs it inside its own transaction)."""
        lanes = [self]  # a Consumer but for take's `-> None` (driver55 rewrites runner.py)
        return await follow(conn, self.registry, lanes, self.batch, progress)  # type: ignore[arg-type]

    async def position(self, conn: asyncpg.Connection) -> int:
        return await conn.fetchval(_POSITION, self.name)

    async def take(self, db: Db, records: list[Record]) -> list[Any]:
        """Write what the batch touched and the tracking row; return what `write` returned
        for each stream written (nothing when another process applied the batch first)."""
        async with db() as conn:
            return await self.write(conn, records)

    async def write(self, conn: asyncpg.Connection, records: list[Record]) -> list[Any]:
        """`take` on a connection the caller holds; a batch with none of its events moves
        the tracking row on in one round trip (as `projections.runner.MOVE_ON`)."""
        last = records[-1].position
        if not any(type(rec.event) in self.types for rec in records):
            await conn.execute(_MOVE_ON, self.name, last)
            return []
        async with conn.transaction():
            done = await conn.fetchval(_LOCK, self.name)
            if done is None or done >= last:
                return []
            touched: dict[UUID, tuple[int, T, int]] = {}
            for rec in records:
                if rec.position > done and type(rec.event) in self.types:
                    value = await self.folder.advance(conn, rec)
                    if value is not None:  # never: the folder takes this lane's fold's types
                        touched[rec.stream_id] = (rec.version, value, rec.position)
            written = [
                await self.model.write(conn, stream, *folded) for stream, folded in touched.items()
            ]
            await conn.execute(_SAVE, self.name, last)
        return written


async def rebuild_folds(pool: asyncpg.Pool, folds: StreamFolds) -> int:
    """Empty the read model and fold it again from 0, in one transaction holding its tracking
    row (so running consumers wait, and readers never see half of it)."""
    async with pool.acquire() as conn, conn.transaction():
        await reset(conn, folds.name, folds.tables)
        with bulk_fold():
            return await folds.fold(conn)
