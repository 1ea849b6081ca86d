"""The one tail loop (`Tail`): one reader follows the global order, woken by the process's one
LISTEN, and reads each batch once; what must see a batch first (the live hub) is handed it on
the reader's connection, and every other consumer (the read models, the results processor,
the standings) takes it in a lane of its own, so no consumer can hold another still. Also
`follow`, one consumer on one connection (a rebuild, the CLI), and `reset`.

A lane keeps its consumer's batches in order; one that falls more than `LANE_EVENTS` behind
the reader (a consumer waiting on the store, a database hiccup) lets its queue go and reads
its own way back after its own position, then rejoins — memory is bounded, and the reader
never waits for it. Every wait in here is bounded (the pool's acquire, the sessions' lock
and statement timeouts) and a failed step is tried again within `RETRY_SECONDS`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Protocol

import asyncpg

from tableside.eventlog import EventRegistry
from tableside.eventlog.source import Record, head, read_after

log = logging.getLogger(__name__)

Db = Callable[[], contextlib.AbstractAsyncContextManager[asyncpg.Connection]]
LANE_EVENTS = 2000  # queued events a lane may hold before it reads its own way back
RETRY_SECONDS = 1.0
RETRYABLE = (
    OSError,
    TimeoutError,
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
)


class Consumer(Protocol):
    """Something that follows the log: its tracked position, and a batch handed to it."""

    async def position(self, conn: asyncpg.Connection) -> int:
        """Where its tracking row says it is (events after this are new to it)."""
        ...

    async def take(self, db: Db, records: list[Record]) -> None:
        """Handle records (all after its position, in order) and save its tracking. `db()`
        gives a connection for what it reads and writes (`async with db() as conn`), once at
        a time: nothing waits for another connection, or for anything slow, while it holds
        one."""
        ...


def held(conn: asyncpg.Connection) -> Db:
    """`db` for a consumer on a connection its caller already holds (a rebuild's, in its
    transaction; the reader's)."""

    @contextlib.asynccontextmanager
    async def same() -> AsyncIterator[asyncpg.Connection]:
        yield conn

    return same


class Tail:
    """The process's one reader of the log and its consumers' lanes.

    No timer: the reader runs when woken — the LISTEN on every new event (and on its every
    (re)connect), a command stored by this process, the database coming back. It starts at
    the head (what came before is each lane's to read after its own position)."""

    def __init__(self, pool: asyncpg.Pool, registry: EventRegistry, batch: int = 500) -> None:
        self.pool, self.registry, self.batch = pool, registry, batch
        self.first: list[Consumer] = []  # handed each batch by the reader itself (the hub)
        self.firsts: list[int] = []  # their positions (in memory: they track nothing)
        self.lanes: list[Lane] = []
        self.wake = asyncio.Event()
        self.read: int | None = None  # the end of the last batch read (None: not started)
        self.turn = asyncio.Semaphore(1)  # the lanes' one connection at a time (`Lane.db`)
        self._tasks: list[asyncio.Task] = []

    def add(self, consumer: Consumer) -> None:
        """Hand this consumer every batch in a lane of its own from now on."""
        lane = Lane(self, consumer)
        self.lanes.append(lane)
        if self._tasks:
            self._tasks.append(asyncio.create_task(lane.run()))
        lane.wake.set()

    def add_first(self, consumer: Consumer) -> None:
        """Hand this consumer each batch on the reader's own connection, before the lanes. It
        must never wait on anything but its own reads (the live hub: publishing never
        waits), since the reader waits for it."""
        self.first.append(consumer)
        self.firsts.append(-1)  # asked on the reader's next step

    async def run(self) -> None:
        """Read whenever woken, each lane in a task of its own; survive database hiccups."""
        self._tasks = [asyncio.create_task(lane.run()) for lane in self.lanes]
        try:
            await keep_caught_up(self.catch_up, self.wake, "tail")
        finally:
            for task in self._tasks:
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def catch_up(self) -> int:
        """Read everything stored so far once, in batches: each to the first consumers, then
        into every lane; return the position reached."""
        async with self.pool.acquire() as conn:
            if self.read is None:
                self.read = await head(conn)
            for i, consumer in enumerate(self.first):
                if self.firsts[i] < 0:
                    self.firsts[i] = await consumer.position(conn)
            start = min((self.read, *self.firsts))
            try:
                while records := await read_after(conn, self.registry, start, self.batch):
                    failed = await self._first(conn, records)
                    if records[-1].position > self.read:
                        for lane in self.lanes:
                            lane.offer(after(records, self.read))
                        self.read = records[-1].position
                    if failed is not None:
                        raise failed  # logged; that consumer is handed this batch again
                    if len(records) < self.batch:
                        break  # the head: a later commit's NOTIFY wakes the reader again
                    start = records[-1].position
            finally:
                for lane in self.lanes:
                    lane.wake.set()  # a lane reading its own way back looks at `read` again
            return self.read

    async def _first(self, conn: asyncpg.Connection, records: list[Record]) -> Exception | None:
        """Hand a batch to the first consumers; what one raises is returned, after the lanes
        have their batch (a first consumer's failure holds no lane still)."""
        for i, consumer in enumerate(self.first):
            if fresh := after(records, self.firsts[i]):
                try:
                    await consumer.take(held(conn), fresh)
                except Exception as exc:
                    return exc
                self.firsts[i] = records[-1].position
        return None


class Lane:
    """One consumer's batches in order, taken in its own task; past `LANE_EVENTS` queued it
    reads its own way back from the log (it starts that way: from its tracked position)."""

    def __init__(self, tail: Tail, consumer: Consumer) -> None:
        self.tail, self.consumer = tail, consumer
        self.position: int | None = None  # the last position handed to the consumer
        self.batches: deque[list[Record]] = deque()
        self.queued = 0
        self.joined = False  # on the reader's batches (else reading its own way back)
        self.wake = asyncio.Event()

    def offer(self, records: list[Record]) -> None:
        """A batch from the reader; never waits."""
        if not self.joined:
            return
        if self.queued + len(records) > LANE_EVENTS:
            self.joined = False  # read back from the log instead of holding more
            self.batches.clear()
            self.queued = 0
        else:
            self.batches.append(records)
            self.queued += len(records)
        self.wake.set()

    @contextlib.asynccontextmanager
    async def db(self) -> AsyncIterator[asyncpg.Connection]:
        """A pooled connection on the lanes' one turn: the read side holds at most two of
        the app's connections (the reader's, a lane's), as the tail and the hub did. The turn
        is waited for holding nothing, as long as a connection would be."""
        tail = self.tail
        async with asyncio.timeout(getattr(tail.pool, "acquire_seconds", 5.0)):
            await tail.turn.acquire()
        try:
            async with tail.pool.acquire() as conn:
                yield conn
        finally:
            tail.turn.release()

    async def run(self) -> None:
        name = f"tail lane {type(self.consumer).__name__}"
        await keep_caught_up(self.step, self.wake, name)

    async def step(self) -> None:
        """Catch up from the log when not joined; then take the queued batches in order, all
        that waited together as one (a read model writes them in one transaction)."""
        if self.position is None:
            async with self.db() as conn:
                self.position = await self.consumer.position(conn)
        if not self.joined:
            await self._read_back()
        while self.batches:
            taken = list(self.batches)  # all queued at once: one write for what came meanwhile
            records = [r for batch in taken for r in batch]
            if fresh := after(records, self.position):
                await self.consumer.take(self.db, fresh)
                self.position = records[-1].position
            for batch in taken:
                if self.batches and self.batches[0] is batch:  # not let go meanwhile
                    self.batches.popleft()
                    self.queued -= len(batch)

    async def _read_back(self) -> None:
        """Read after its own position until it meets the reader, then join its batches (at
        a moment when every batch read later lies after what it has taken)."""
        tail = self.tail
        while tail.read is not None:
            async with self.db() as conn:
                records = await read_after(conn, tail.registry, self.position, tail.batch)
            if records:
                await self.consumer.take(self.db, records)
                self.position = records[-1].position
            elif self.position >= tail.read:
                self.joined = True
                return


def after(records: list[Record], position: int) -> list[Record]:
    """The records of a batch after `position` (the whole batch when it all is)."""
    if records[0].position > position:
        return records
    return [r for r in records if r.position > position]


async def follow(
    conn: asyncpg.Connection,
    registry: EventRegistry,
    consumers: Sequence[Consumer],
    batch: int = 500,
    progress: Callable[[int], None] | None = None,
    reader: asyncpg.Connection | None = None,
) -> int:
    """Read once after the slowest consumer; hand each what lies after its own position, all
    on `conn` (a rebuild's transaction; the CLI's catch-up).

    With a `reader` (a second connection), the next batch is read while this one is handed
    on: the database reads while Python folds (a rebuild's pipeline)."""
    positions = [await c.position(conn) for c in consumers]
    position = min(positions, default=0)
    source = reader or conn
    db = held(conn)
    records = await read_after(source, registry, position, batch) if consumers else []
    while records:
        position = records[-1].position
        ahead = (
            asyncio.ensure_future(read_after(reader, registry, position, batch)) if reader else None
        )
        for i, consumer in enumerate(consumers):
            if fresh := after(records, positions[i]):
                await consumer.take(db, fresh)
                positions[i] = position
        if progress:
            progress(position)
        records = await ahead if ahead else await read_after(conn, registry, position, batch)
    return position


async def keep_caught_up(
    step: Callable[[], Awaitable[object]],
    wake: asyncio.Event,
    name: str,
    retry_seconds: float = RETRY_SECONDS,
) -> None:
    """Run `step` whenever `wake` is set; after a failure, again within `retry_seconds`. No
    timer besides: the wake is cleared before the step, so a wake that comes during it (a
    NOTIFY in the middle of a batch) is never lost — the step runs once more."""
    while True:
        wake.clear()
        wait = None
        try:
            await step()
        except RETRYABLE as exc:
            log.warning("%s: %s; retrying", name, exc)
            wait = retry_seconds
        except Exception:  # a consumer's bug: said loudly, tried again, never the loop's end
            log.exception("%s failed; retrying", name)
            wait = retry_seconds
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), wait)


async def reset(conn: asyncpg.Connection, name: str, tables: tuple[str, ...]) -> None:
    """Lock a projection's tracking row (held to the end of the transaction), empty its tables
    and set its position to 0. DELETE, not TRUNCATE: readers keep the old rows meanwhile."""
    await conn.fetchval("SELECT position FROM projection_tracking WHERE name = $1 FOR UPDATE", name)
    for table in tables:
        await conn.execute(f"DELETE FROM {table}")
    await conn.execute("UPDATE projection_tracking SET position = 0 WHERE name = $1", name)
