"""While the database is gone or the server is too busy: 503 with Retry-After (never 500,
never a hang), and a watch that tells which it is (issue 28).

`Watch` pings the database every half second on a connection of its own (never the request
pool: a pool its requests have exhausted is not a dead database) and keeps `ctx.health`
current: `ok`, `pool exhausted` (the database answers, but a request has waited for a pooled
connection for a second or more) or `unreachable`, each with its reason. `database_gate` (an
app guard) answers API requests with 503 at once while the database is unreachable, instead of
letting them wait on a pool; an error that still reaches a handler mid-request is one of
UNAVAILABLE and gets the same 503. A request that cannot get a connection, its turn at a lock
or its statement done in time (BUSY) gets 503 "Server busy" and releases what it held.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from typing import Any

import anyio.to_thread
import asyncpg
import psycopg.errors
import psycopg_pool
from eventsourcing.persistence import InterfaceError as StoreInterfaceError
from eventsourcing.persistence import OperationalError as StoreOperationalError
from litestar import Request, Response
from litestar.connection import ASGIConnection
from litestar.exceptions import HTTPException
from litestar.handlers.base import BaseRouteHandler

from tableside.db.pool import PoolBusy, session_settings
from tableside.db.replication import HEALTH_QUERY
from tableside.web.problems import coded, problem, title_in, words_in

log = logging.getLogger(__name__)

RETRY_AFTER = "2"  # seconds; the embedded server restarts in about one
UNAVAILABLE: tuple[type[Exception], ...] = (
    asyncpg.PostgresConnectionError,  # class 08: the connection is gone
    asyncpg.exceptions.OperatorInterventionError,  # 57: shutting down, starting up, recovering
    asyncpg.InterfaceError,  # "connection is closed" and the like
    asyncpg.exceptions.InternalClientError,  # a connection lost mid-operation confuses asyncpg
    StoreOperationalError,  # the store's psycopg pool: lost connection, pool timeout
    StoreInterfaceError,
    ConnectionError,  # refused / reset while (re)connecting
    TimeoutError,  # a pool or a connect that did not answer in time
)
_DETAIL = "The database is unreachable just now; nothing was stored. Try again shortly."
BUSY: tuple[type[Exception], ...] = (
    PoolBusy,  # no pooled connection (or turn at the hall's lock) in time
    asyncpg.exceptions.LockNotAvailableError,  # lock_timeout
    asyncpg.exceptions.QueryCanceledError,  # statement_timeout
)
# The store's psycopg side of the same (wrapped in the library's OperationalError).
_STORE_BUSY = (
    psycopg_pool.PoolTimeout,
    psycopg.errors.LockNotAvailable,
    psycopg.errors.QueryCanceled,
)
_BUSY_DETAIL = "The server is too busy to take this just now; nothing was stored. Try again."
EXHAUSTED_AFTER = 1.0  # seconds a request has waited for a pooled connection: pool exhausted


def unavailable_response(request: Request, exc: Exception) -> Response:
    """503 problem+json with Retry-After for a database that went away mid-request (or, for
    the store, a wait that ran out: busy)."""
    if _store_busy(exc):
        return busy_response(request, exc)
    log.warning("database unavailable on %s %s: %s", request.method, request.url.path, exc)
    title = title_in(request, "Database unavailable")
    detail = words_in(request, "unavailable", _DETAIL)
    return problem(503, title, detail, headers={"Retry-After": RETRY_AFTER}, code="unavailable")


def busy_response(request: Request, exc: Exception) -> Response:
    """503 problem+json with Retry-After for a request that waited its bound out."""
    log.warning("server busy on %s %s: %s", request.method, request.url.path, exc)
    reason = str(exc) or type(exc).__name__
    return problem(
        503,
        title_in(request, "Server busy"),
        words_in(request, "busy", _BUSY_DETAIL),
        headers={"Retry-After": RETRY_AFTER},
        reason=reason,
        code="busy",
    )


# The app's handlers for both (server/ adds them beside web/problems.py's).
AVAILABILITY_HANDLERS: dict[type[Exception], Any] = {
    **dict.fromkeys(UNAVAILABLE, unavailable_response),
    **dict.fromkeys(BUSY, busy_response),
}


def _store_busy(exc: BaseException) -> bool:
    cause = exc.__cause__ or exc.__context__
    return isinstance(exc, _STORE_BUSY) or (cause is not None and isinstance(cause, _STORE_BUSY))


async def database_gate(connection: ASGIConnection, _: BaseRouteHandler) -> None:
    """Refuse API requests at once (503) while the watch sees the database down (async: a
    sync guard would cost every request a hop to a worker thread)."""
    ctx = connection.app.state.tableside
    if ctx.database_down and connection.url.path.startswith("/api/"):
        raise HTTPException(
            status_code=503,
            detail="Database unavailable",
            headers={"Retry-After": RETRY_AFTER},
            extra={"detail": _DETAIL, **coded("unavailable")},
        )


@dataclass
class Health:
    """What the watch saw last: `state` (ok / pool exhausted / unreachable), why, and the
    versions it read when it (re)connected."""

    state: str = "ok"
    reason: str = ""
    server_version: str | None = None
    schema_version: int | None = None
    # With a standby configured (issue 33): (synchronous, a sender attached, in recovery).
    replication: tuple[bool, bool, bool] | None = None


_SERVER = "SELECT current_setting('server_version'), to_regclass('schema_migrations')"
_SCHEMA = "SELECT max(version) FROM schema_migrations"


class Watch:
    """The health watch: its own connection, a look every `interval` seconds."""

    def __init__(self, ctx, interval: float = 0.5, answer_within: float = 2.0) -> None:
        self.ctx, self.interval, self.answer_within = ctx, interval, answer_within
        self.conn: asyncpg.Connection | None = None

    async def run(self) -> None:
        """Look until cancelled (then close the connection)."""
        try:
            while True:
                await asyncio.sleep(self.interval)
                await self.look()
        finally:
            if self.conn is not None:
                self.conn.terminate()

    async def look(self) -> None:
        """Ping on the watch's connection (reconnecting as needed); then judge the pool."""
        try:
            async with asyncio.timeout(self.answer_within):
                await self._ping()
        except (*UNAVAILABLE, OSError, asyncpg.PostgresError) as exc:
            if self.conn is not None:
                self.conn.terminate()
                self.conn = None
            reason = str(exc) or f"no answer within {self.answer_within:g} s"
            self._seen("unreachable", f"unreachable: {type(exc).__name__}: {reason}")
            return
        if self._seen(*self._pool_state()):
            await _back(self.ctx)

    async def _ping(self) -> None:
        if self.conn is None or self.conn.is_closed():
            self.conn = None
            settings = self.ctx.settings
            conn = await asyncpg.connect(
                settings.database_url, server_settings=session_settings(settings)
            )
            self.conn = conn
            health = self.ctx.health
            health.server_version, migrations = await conn.fetchrow(_SERVER)
            health.schema_version = await conn.fetchval(_SCHEMA) if migrations else None
        if self.ctx.settings.replication:
            self.ctx.health.replication = tuple(await self.conn.fetchrow(HEALTH_QUERY))
        else:
            await self.conn.fetchval("SELECT 1")

    def _pool_state(self) -> tuple[str, str]:
        pool = self.ctx.pool
        waited = pool.longest_wait() if hasattr(pool, "longest_wait") else 0.0
        if waited < EXHAUSTED_AFTER:
            return "ok", ""
        return "pool exhausted", (
            f"pool exhausted: all {pool.get_size()} of {pool.get_max_size()} connections in "
            f"use, {len(pool.waiting)} requests waiting for one, the longest {waited:.1f} s"
        )

    def _seen(self, state: str, reason: str) -> bool:
        """Keep what was seen; True when the database answers again after an outage."""
        ctx, health = self.ctx, self.ctx.health
        was = health.state
        health.state, health.reason = state, reason
        if state != was:
            log.warning("database: %s", reason or "ok again")
        back = ctx.database_down and state != "unreachable"
        ctx.database_down = state == "unreachable"
        return back


async def _back(ctx) -> None:
    """The database answers again: both pools drop the connections that died with it (the
    request pool's are replaced on their next acquire), the readers wake."""
    await ctx.pool.expire_connections()
    with contextlib.suppress(Exception):  # best effort: the pool copes anyway
        await anyio.to_thread.run_sync(ctx.store.check_connections)
    for woken in ctx.on_database_back:
        woken()
