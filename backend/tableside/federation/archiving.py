"""The archive kept up with the pushes (decision 0172): once a push is kept, the venue's
archive and the season lists it touches catch up in the background, never in the push's
reply. One run per venue at a time on a node; a push that lands meanwhile asks for one run
more. Several nodes share the database: `archive.project.catch_up` takes the venue's
advisory lock (bounded by its lock_timeout), so a run refused there is left to the next push
or the next start, when every venue is caught up again."""

from __future__ import annotations

import asyncio
import logging
from uuid import UUID

import asyncpg

from tableside.eventlog import EventRegistry
from tableside.federation.archive.kept import registry as house_registry
from tableside.federation.archive.project import catch_up_all, refresh

log = logging.getLogger(__name__)
ACQUIRE_WAIT = 10.0  # seconds a run waits for a pooled connection


class Archivist:
    """The background runs of one node: `kept(venue)` after each kept push."""

    def __init__(self, pool: asyncpg.Pool, registry: EventRegistry | None = None) -> None:
        self.pool = pool
        self.registry = registry or house_registry()
        self.running: set[UUID | None] = set()
        self.again: set[UUID | None] = set()
        self.tasks: set[asyncio.Task] = set()

    def kept(self, venue_id: UUID | None) -> None:
        """A push of `venue_id` was kept (None: every venue, as at start)."""
        if venue_id in self.running:
            self.again.add(venue_id)
            return
        self.running.add(venue_id)
        task = asyncio.get_running_loop().create_task(self._run(venue_id))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def idle(self) -> None:
        """Until every run under way has ended (tests, and a node going down)."""
        while self.tasks:
            await asyncio.gather(*list(self.tasks), return_exceptions=True)

    async def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*list(self.tasks), return_exceptions=True)

    async def _run(self, venue_id: UUID | None) -> None:
        try:
            while True:
                self.again.discard(venue_id)
                await self._once(venue_id)
                if venue_id not in self.again:
                    return
        finally:
            self.running.discard(venue_id)

    async def _once(self, venue_id: UUID | None) -> None:
        try:
            async with self.pool.acquire(timeout=ACQUIRE_WAIT) as conn:
                if venue_id is None:
                    await catch_up_all(conn, self.registry)
                else:
                    await refresh(conn, self.registry, venue_id)
        except (asyncpg.PostgresError, OSError, TimeoutError) as exc:
            log.warning("the archive of venue %s did not catch up now: %s", venue_id or "*", exc)
