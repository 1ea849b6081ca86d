"""The one tail loop (`Tail`): follow the global order after each consumer's tracked position,
in batches, woken by the process's one LISTEN; and the projection runner, one of its consumers
(read after the slowest projection, fold once, write each in its transaction)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

import asyncpg
from eventsourcing.persistence import PersistenceError

from tableside.eventlog import EventRegistry
from tableside.eventlog.source import Record, read_after

log = logging.getLogger(__name__)


class Consumer(Protocol):
    """Something that follows the log: its tracked position, and a batch handed to it."""

    async def position(self, conn: asyncpg.Connection) -> int:
        """Where its tracking row says it is (events after this are new to it)."""
        ...

    async def take(self, conn: asyncpg.Connection, records: list[Record]) -> None:
        """Handle records (all after its position, in order) and save its tracking."""
        ...


class Tail:
    """The process's one follower of the log; every consumer is handed each batch once.

    No timer: it runs when woken — the LISTEN on every new event (and on its every
    (re)connect), a command stored by this process, the database coming back — and retries
    within a second after a database error."""

    def __init__(self, pool: asyncpg.Pool, registry: EventRegistry, batch: int = 500) -> None:
        self.pool, self.registry, self.batch = pool, registry, batch
        self.consumers: list[Consumer] = []
        self.wake = asyncio.Event()

    def add(self, consumer: Consumer) -> None:
        """Hand this consumer every batch from now on (and wake to catch it up)."""
        self.consumers.append(consumer)
        self.wake.set()

    async def run(self) -> None:
        """Catch up whenever woken; survive database hiccups."""
        await keep_caught_up(self.catch_up, self.wake, None, "tail")

    async def catch_up(self) -> int:
        """Hand everything stored so far to every consumer; return the position reached."""
        async with self.pool.acquire() as conn:
            return await follow(conn, self.registry, list(self.consumers), self.batch)


async def follow(
    conn: asyncpg.Connection,
    registry: EventRegistry,
    consumers: Sequence[Consumer],
    batch: int = 500,
    progress: Callable[[int], None] | None = None,
    reader: asyncpg.Connection | None = None,
) -> int:
    """Read once after the slowest consumer; hand each what lies after its own position.

    With a `reader` (a second connection), the next batch is read while this one is handed
    on: the database reads while Python folds (a rebuild's pipeline)."""
    positions = [await c.position(conn) for c in consumers]
    position = min(positions, default=0)
    source = reader or conn
    records = await read_after(source, registry, position, batch) if consumers else []
    while records:
        position = records[-1].position
        ahead = (
            asyncio.ensure_future(read_after(reader, registry, position, batch)) if reader else None
        )
        for i, consumer in enumerate(consumers):
            after = positions[i]
            fresh = (
                records
                if records[0].position > after
                else [r for r in records if r.position > after]
            )
            if fresh:
                await consumer.take(conn, fresh)
                positions[i] = position
        if progress:
            progress(position)
        records = await ahead if ahead else await read_after(conn, registry, position, batch)
    return position


async def keep_caught_up(
    step: Callable[[], Awaitable[object]],
    wake: asyncio.Event,
    poll_seconds: float | None,
    name: str,
    retry_seconds: float = 1.0,
) -> None:
    """Run `step` whenever `wake` is set (and every `poll_seconds`, unless None); after a
    database hiccup, again within `retry_seconds`. The wake is cleared before the step, so a
    wake that comes during it is never lost."""
    while True:
        wake.clear()
        wait = poll_seconds
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
            wait = retry_seconds if wait is None else min(wait, retry_seconds)
        except Exception:  # a consumer's bug: said loudly, tried again, never the loop's end
            log.exception("%s failed; retrying", name)
            wait = retry_seconds if wait is None else min(wait, retry_seconds)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), wait)


async def reset(conn: asyncpg.Connection, name: str, tables: tuple[str, ...]) -> None:
    """Lock a projection's tracking row (held to the end of the transaction), empty its tables
    and set its position to 0. DELETE, not TRUNCATE: readers keep the old rows meanwhile."""
    await conn.fetchval("SELECT position FROM projection_tracking WHERE name = $1 FOR UPDATE", name)
    for table in tables:
        await conn.execute(f"DELETE FROM {table}")
    await conn.execute("UPDATE projection_tracking SET position = 0 WHERE name = $1", name)
