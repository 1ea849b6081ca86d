"""Keep projections caught up: read after the slowest, fold once, write each in its transaction."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

import asyncpg
from eventsourcing.persistence import PersistenceError

from tableside.projections.base import Item, Projection
from tableside.projections.folder import Folder
from tableside.projections.source import read_after
from tableside.store import EventRegistry

log = logging.getLogger(__name__)

_POSITIONS = "SELECT name, position FROM projection_tracking WHERE name = any($1::text[])"
_LOCK = "SELECT position FROM projection_tracking WHERE name = $1 FOR UPDATE"
_SAVE = "UPDATE projection_tracking SET position = $2 WHERE name = $1"


class ProjectionRunner:
    """One per process; several processes on one database serialise on the tracking row."""

    def __init__(
        self,
        pool: asyncpg.Pool,
        registry: EventRegistry,
        projections: list[Projection],
        batch: int = 500,
    ) -> None:
        self.pool, self.registry, self.projections = pool, registry, projections
        self.folder = Folder(registry)
        self.wake = asyncio.Event()
        self.batch = batch

    async def run(self, poll_seconds: float = 1.0) -> None:
        """Catch up whenever woken (LISTEN), and at least every `poll_seconds`."""
        await keep_caught_up(self.catch_up, self.wake, poll_seconds, "projection runner")

    async def catch_up(self, progress: Callable[[int], None] | None = None) -> int:
        """Apply everything stored so far; return the position reached."""
        async with self.pool.acquire() as conn:
            return await self.fold(conn, progress)

    async def fold(
        self, conn: asyncpg.Connection, progress: Callable[[int], None] | None = None
    ) -> int:
        """catch_up on one connection (a rebuild runs it inside its own transaction)."""
        names = [p.name for p in self.projections]
        rows = await conn.fetch(_POSITIONS, names)
        position = min((r["position"] for r in rows), default=0)
        while records := await read_after(conn, self.registry, position, self.batch):
            items = [
                (rec, view)
                for rec in records
                if (view := await self.folder.advance(conn, rec)) is not None
            ]
            for projection in self.projections:
                await _apply(conn, projection, items, records[-1].position)
            position = records[-1].position
            if progress:
                progress(position)
        return position


async def keep_caught_up(
    step: Callable[[], Awaitable[object]], wake: asyncio.Event, poll_seconds: float, name: str
) -> None:
    """Run `step` whenever `wake` is set and at least every poll; survive database hiccups."""
    while True:
        try:
            await step()
        except (
            OSError,
            TimeoutError,
            asyncpg.PostgresError,
            asyncpg.InterfaceError,
            PersistenceError,  # the store's psycopg pool (processors write through it)
        ) as exc:
            log.warning("%s: %s; retrying", name, exc)
        wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), poll_seconds)


async def reset(conn: asyncpg.Connection, name: str, tables: tuple[str, ...]) -> None:
    """Lock a projection's tracking row (held to the end of the transaction), empty its tables
    and set its position to 0. DELETE, not TRUNCATE: readers keep the old rows meanwhile."""
    await conn.fetchval("SELECT position FROM projection_tracking WHERE name = $1 FOR UPDATE", name)
    for table in tables:
        await conn.execute(f"DELETE FROM {table}")
    await conn.execute("UPDATE projection_tracking SET position = 0 WHERE name = $1", name)


async def _apply(
    conn: asyncpg.Connection, projection: Projection, items: list[Item], last: int
) -> None:
    """Rows and tracking position in one transaction; skip what another process applied."""
    async with conn.transaction():
        done = await conn.fetchval(_LOCK, projection.name)
        if done is None or done >= last:
            return
        fresh = [item for item in items if item[0].position > done]
        if fresh:
            await projection.apply(conn, fresh)
        await conn.execute(_SAVE, projection.name, last)
