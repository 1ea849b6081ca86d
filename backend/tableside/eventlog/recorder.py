"""The store's PostgreSQL side: asyncpg on the event loop (issue 55 point 3, decision 0217).

One driver for writes: an append is one round trip into `tableside_append` (schema/005, 010:
the EXCLUSIVE table lock for the gapless global order, the command_id check under it — a retry
with the same command digest stores nothing, another digest is refused with TS409 — and
`NOTIFY stored_events`); the commands a group commit gathers go in one `tableside_append_batch`
(schema/012). Every wait is bounded: the pool's acquire (`PoolBusy`) and the session's
lock and statement timeouts (set on each connection the pool opens). A connection lost
mid-append is tried again on a fresh one, a few times: a command that did commit is found by
its command_id and answered as a replay, never stored twice.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import NamedTuple, TypeVar
from uuid import UUID

import asyncpg

from tableside.db.pool import GuardedPool
from tableside.eventlog.records import RAW_COLUMNS, RawRecord, StoreNotReady

EVENTS_TABLE = "stored_events"
STORED, REPLAYED, REUSED, CONFLICT = "stored", "replayed", "reused", "conflict"

_APPEND = "SELECT * FROM tableside_append($1, $2, $3, $4::stored_event_uuid[])"
_BATCH = (
    "SELECT command_no, outcome, positions FROM tableside_append_batch("
    "$1::uuid[], $2::bytea[], $3::text[], $4::integer[], $5::stored_event_uuid[])"
)
_REUSED = "TS409"  # tableside_append: this command_id holds a different command
_SELECT = f"SELECT {RAW_COLUMNS} FROM stored_events "
_STREAM = (
    _SELECT + "WHERE originator_id = $1 AND originator_version > $2 ORDER BY originator_version"
)
_AFTER = _SELECT + "WHERE notification_id > $1 ORDER BY notification_id LIMIT $2"
_COMMAND = _SELECT + "WHERE command_id = $1"
_VERSION = "SELECT coalesce(max(originator_version), 0) FROM stored_events WHERE originator_id = $1"
_HEAD = "SELECT coalesce(max(notification_id), 0) FROM stored_events"
_READY = "SELECT to_regtype('stored_event_uuid') IS NOT NULL"

# A connection that went away (a database restart, a network cut): tried again, at most
# ATTEMPTS times PAUSE apart, each on a fresh connection.
LOST: tuple[type[BaseException], ...] = (
    asyncpg.PostgresConnectionError,
    asyncpg.ConnectionDoesNotExistError,
    asyncpg.exceptions.CannotConnectNowError,
    ConnectionError,
)
ATTEMPTS, PAUSE = 10, 0.2
# The store busy or away, as a caller meets it: nothing of its append was written, or what was
# is found by its command_id on a retry (a pool or a call that ran out of time is a
# TimeoutError: `PoolBusy`, `GroupCommitTimeout`, `StoreCallTimeout`).
STORE_AWAY: tuple[type[BaseException], ...] = (
    *LOST,
    asyncpg.InterfaceError,
    asyncpg.exceptions.QueryCanceledError,
    asyncpg.exceptions.LockNotAvailableError,
    TimeoutError,
)

T = TypeVar("T")
Row = tuple[UUID, int, str, bytes]  # stored_event_uuid: stream, version, type, JSON


class Command(NamedTuple):
    """One command's rows for the append functions."""

    command_id: UUID
    digest: bytes | None
    meta: str
    rows: tuple[Row, ...]


class Outcome(NamedTuple):
    """What the database did with one command: stored (at `positions`), replayed (the
    command_id holds this command already), reused (it holds another), conflict."""

    kind: str
    positions: tuple[int, ...] = ()


async def open_store_pool(
    url: str, size: int, wait_seconds: float, session: Mapping[str, str] | None
) -> GuardedPool:
    """The store's own pool: `size` connections, a connection waited for at most
    `wait_seconds`, each with the session's settings (lock_timeout, statement_timeout…).
    StoreNotReady when the database lacks the schema/ migrations."""
    pool = GuardedPool(
        url,
        acquire_seconds=wait_seconds,
        connection_class=asyncpg.Connection,
        record_class=asyncpg.Record,
        min_size=1,
        max_size=size,
        max_queries=50000,
        max_inactive_connection_lifetime=300.0,
        loop=None,
        timeout=wait_seconds,  # a connect
        server_settings=dict(session or {}),
        reset=_keep_session,
    )
    await pool
    if not await pool.fetchval(_READY):
        await pool.close()
        raise StoreNotReady("the database has no stored_events schema: run `tableside migrate`")
    return pool


async def _keep_session(_: asyncpg.Connection) -> None:
    """Nothing sets session state on the store's connections: no reset round trip."""


class PgRecorder:
    """The store's reads and appends on an asyncpg pool (the caller's event loop)."""

    def __init__(self, pool: GuardedPool) -> None:
        self.pool = pool

    async def append(self, command: Command) -> Outcome:
        """One command in a transaction of its own (`tableside_append`)."""
        args = (command.command_id, command.digest, command.meta, command.rows)
        try:
            rows = await self._retrying(lambda conn: conn.fetch(_APPEND, *args))
        except asyncpg.IntegrityConstraintViolationError:
            return Outcome(CONFLICT)  # the stream moved on (or the version skips one)
        except asyncpg.PostgresError as exc:
            if exc.sqlstate == _REUSED:
                return Outcome(REUSED)
            raise
        if not rows:  # the command_id is stored already, with this command
            return Outcome(REPLAYED)
        return Outcome(STORED, tuple(r[0] for r in rows))

    async def append_batch(self, commands: Sequence[Command]) -> list[Outcome]:
        """Several commands in one transaction (`tableside_append_batch`): per command, in
        order, its outcome, each decided as `append` would decide it alone."""
        args = (
            [c.command_id for c in commands],
            [c.digest for c in commands],
            [c.meta for c in commands],
            [len(c.rows) for c in commands],
            [row for c in commands for row in c.rows],
        )
        rows = await self._retrying(lambda conn: conn.fetch(_BATCH, *args))
        found = {row[0]: row for row in rows}
        return [Outcome(found[i][1], tuple(found[i][2] or ())) for i in range(1, len(commands) + 1)]

    async def stream_records(self, stream_id: UUID, after_version: int = 0) -> list[RawRecord]:
        """Rows of one stream after a version, in version order."""
        return await self._records(_STREAM, stream_id, after_version)

    async def records_after(self, position: int, limit: int) -> list[RawRecord]:
        """Rows after a global position, in global order."""
        return await self._records(_AFTER, position, limit)

    async def command_records(self, command_id: UUID) -> list[RawRecord]:
        """Rows a command stored, if it was stored."""
        return await self._records(_COMMAND, command_id)

    async def stream_version(self, stream_id: UUID) -> int:
        """The stream's last version, 0 if it has none."""
        return int(await self._retrying(lambda conn: conn.fetchval(_VERSION, stream_id)))

    async def head(self) -> int:
        """The newest global position, 0 for an empty store."""
        return int(await self._retrying(lambda conn: conn.fetchval(_HEAD)))

    async def _records(self, query: str, *args: object) -> list[RawRecord]:
        rows = await self._retrying(lambda conn: conn.fetch(query, *args))
        return [_raw(r) for r in rows]

    async def _retrying(self, work: Callable[[asyncpg.Connection], Awaitable[T]]) -> T:
        """`work` on a pooled connection; again on a fresh one after a lost connection."""
        for attempt in range(1, ATTEMPTS + 1):
            try:
                async with self.pool.acquire() as conn:
                    return await work(conn)
            except LOST:
                if attempt == ATTEMPTS:
                    raise
                await self.pool.expire_connections()
                await asyncio.sleep(PAUSE)
        raise AssertionError("unreachable")  # pragma: no cover


def _raw(r: asyncpg.Record) -> RawRecord:
    """A row of the RAW_COLUMNS shape (asyncpg gives bytea as bytes, uuid as a UUID)."""
    return RawRecord(
        stream_id=UUID(bytes=r[0].bytes),
        version=r[1],
        position=r[2],
        type_name=r[3],
        payload=r[4],
        recorded_at=r[5],
        command_id=UUID(bytes=r[6].bytes),
        meta=r[7],
        prev_hash=r[8],
        hash=r[9],
        global_hash=r[10] if r[10] is not None else b"",
    )
