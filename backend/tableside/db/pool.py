"""The app's asyncpg pool (issue 28): every wait for a connection is bounded, the pool says
how long its longest waiter has waited (the health watch's "pool exhausted"), and, with the
guard on (`TABLESIDE_POOL_GUARD`, set for every server the tests start), a task that holds a
connection and asks for a second one fails loudly instead of waiting.

That shape is how the pool deadlocked: with as many such tasks as connections, each waits for
a connection only another of them could give back. So no code path holds a pooled connection
while it waits for another; what must run together runs on the one connection.
"""

from __future__ import annotations

import asyncio
import logging
import time
import traceback
from pathlib import Path
from typing import Any

import asyncpg

from tableside.settings import Settings

log = logging.getLogger(__name__)


class PoolBusy(TimeoutError):
    """No connection came free in time: the server is busy (503 + Retry-After), not broken."""


class NestedAcquire(RuntimeError):
    """A task that holds a pooled connection asked for a second one (the guard is on)."""


class GuardedPool(asyncpg.Pool):
    """asyncpg's pool with a default acquire timeout, a record of who holds and who waits,
    and the nesting guard. `pool.fetch…` acquire through `acquire`, so they are covered."""

    def __init__(
        self,
        *args: Any,
        acquire_seconds: float,
        guard: bool = False,
        guard_file: Path | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.acquire_seconds, self.guard, self.guard_file = acquire_seconds, guard, guard_file
        self.holding: dict[asyncio.Task, int] = {}
        self.waiting: dict[int, float] = {}  # a waiter's id -> when it began to wait

    def acquire(self, *, timeout: float | None = None) -> _Acquire:
        return _Acquire(self, self.acquire_seconds if timeout is None else timeout)

    def longest_wait(self) -> float:
        """Seconds the longest waiter for a connection has waited so far (0: nobody waits)."""
        return time.monotonic() - min(self.waiting.values()) if self.waiting else 0.0

    def check_nesting(self) -> None:
        """The guard: refuse a second connection to a task that holds one."""
        task = asyncio.current_task()
        if not self.guard or task is None or not self.holding.get(task):
            return
        where = "".join(traceback.format_stack(limit=12)[:-2])
        message = f"task {task.get_name()} holds a pooled connection and asks for another"
        log.error("%s (issue 28: a deadlock under load):\n%s", message, where)
        if self.guard_file is not None:
            with self.guard_file.open("a") as out:
                out.write(f"{message}\n{where}\n")
        raise NestedAcquire(message)


class _Acquire:
    """`async with pool.acquire() as conn`, with the bookkeeping (nothing here awaits one)."""

    __slots__ = ("conn", "pool", "task", "timeout")

    def __init__(self, pool: GuardedPool, timeout: float) -> None:
        self.pool, self.timeout = pool, timeout
        self.conn: asyncpg.Connection | None = None
        self.task: asyncio.Task | None = None

    async def __aenter__(self) -> asyncpg.Connection:
        self.conn = await self._get()
        return self.conn

    async def __aexit__(self, *_: object) -> None:
        conn, self.conn = self.conn, None
        self._held(-1)
        await self.pool.release(conn)

    async def _get(self) -> asyncpg.Connection:
        pool = self.pool
        pool.check_nesting()
        key = id(self)
        pool.waiting[key] = time.monotonic()
        try:
            conn = await asyncpg.Pool.acquire(pool, timeout=self.timeout)
        except TimeoutError:
            raise PoolBusy(f"no database connection came free within {self.timeout:g} s") from None
        finally:
            del pool.waiting[key]
        self.task = asyncio.current_task()
        self._held(+1)
        return conn

    def _held(self, step: int) -> None:
        holding, task = self.pool.holding, self.task
        if task is None:
            return
        count = holding.get(task, 0) + step
        if count > 0:
            holding[task] = count
        else:
            holding.pop(task, None)


def session_settings(settings: Settings) -> dict[str, str]:
    """The app's sessions never wait for ever: on a lock, on a statement, idle in a
    transaction (a request cut mid-transaction leaves nothing held)."""
    lock_ms = str(int(settings.db_lock_seconds * 1000))
    statement_ms = str(int(settings.db_statement_seconds * 1000))
    return {
        "lock_timeout": lock_ms,
        "statement_timeout": statement_ms,
        "idle_in_transaction_session_timeout": statement_ms,
    }


async def open_pool(settings: Settings, **kwargs: Any) -> GuardedPool:
    """The request pool of `settings.database_url` (`kwargs`: asyncpg's pool options)."""
    pool = GuardedPool(
        settings.database_url,
        acquire_seconds=settings.db_acquire_seconds,
        guard=settings.pool_guard,
        guard_file=settings.pool_guard_file,
        connection_class=asyncpg.Connection,
        record_class=asyncpg.Record,
        min_size=kwargs.pop("min_size", 1),
        max_size=kwargs.pop("max_size", settings.db_pool_size),
        max_queries=50000,
        max_inactive_connection_lifetime=300.0,
        loop=None,
        server_settings=session_settings(settings),
        **kwargs,
    )
    return await pool
