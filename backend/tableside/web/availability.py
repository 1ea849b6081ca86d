"""While the database is gone or the server is too busy: 503 with Retry-After (never 500,
never a hang), and a watch that tells which it is (issue 28).

`Watch` pings the database every half second on a connection, a thread and an event loop of its
own (never the request pool: a pool its requests have exhausted is not a dead database; never
the request loop: a busy loop is not a dead database either) and keeps `ctx.health`
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
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import anyio.to_thread
import asyncpg
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
    ConnectionError,  # refused / reset while (re)connecting
    TimeoutError,  # a pool or a connect that did not answer in time
)
_DETAIL = "The database is unreachable just now; nothing was stored. Try again shortly."
BUSY: tuple[type[Exception], ...] = (
    PoolBusy,  # no pooled connection (or turn at the hall's lock) in time
    asyncpg.exceptions.LockNotAvailableError,  # lock_timeout
    asyncpg.exceptions.QueryCanceledError,  # statement_timeout
)
_BUSY_DETAIL = "The server is too busy to take this just now; nothing was stored. Try again."
EXHAUSTED_AFTER = 1.0  # seconds a request has waited for a pooled connection: pool exhausted


def unavailable_response(request: Request, exc: Exception) -> Response:
    """503 problem+json with Retry-After for a database that went away mid-request (the
    store's connections are asyncpg's too: one set of errors, decision 0217)."""
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
AVAILABILITY_HANDLERS: dict[int | type[Exception], Any] = {
    **dict.fromkeys(UNAVAILABLE, unavailable_response),
    **dict.fromkeys(BUSY, busy_response),
}


async def database_gate(connection: ASGIConnection, _: BaseRouteHandler) -> None:
    """Refuse API requests at once (503) while the watch sees the database down, and API writes
    while a standby is required and none is attached (async: a sync guard would cost every
    request a hop to a worker thread)."""
    ctx = connection.app.state.tableside
    path = connection.scope["path"]
    if not path.startswith("/api/"):
        return
    if ctx.database_down:
        raise HTTPException(
            status_code=503,
            detail="Database unavailable",
            headers={"Retry-After": RETRY_AFTER},
            extra={"detail": _DETAIL, **coded("unavailable")},
        )
    if connection.scope.get("method") in _WRITES and path not in SESSIONS and _no_standby(ctx):
        raise HTTPException(
            status_code=503,
            detail="No standby",
            headers={"Retry-After": RETRY_AFTER},
            extra={"detail": _NO_STANDBY, **coded("no_standby")},
        )


_WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
LOGIN = "/api/login"  # a login is no record: staff reach the console that says why
# Nor is a logout (#50: refused 503, a head judge could not end a session): neither waits,
# the watch clears `synchronous_standby_names` while no standby streams (decision 0142).
SESSIONS = frozenset({LOGIN, "/api/logout"})
_NO_STANDBY = (
    "No standby is attached and this event requires one (TABLESIDE_STANDBY_REQUIRED); nothing "
    "was stored. Try again once the standby is back."
)


def _no_standby(ctx) -> bool:
    """A standby is required (TABLESIDE_STANDBY_REQUIRED) and the watch saw none attached:
    the write is refused at once rather than left to wait in PostgreSQL for one (issue 46)."""
    if not ctx.settings.standby_required:
        return False
    seen = ctx.health.replication  # (synchronous, attached, in recovery), by the watch
    return seen is None or not seen[1]


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
    """The health watch: its own thread, event loop and connection, a look every `interval`
    seconds (issue 46). On the request loop a flood of work delayed its ping's answer past
    `answer_within` and it took loop lag for a dead database: the gate then refused everyone.
    On a loop of its own a ping waits only for PostgreSQL. `unreachable` needs a connection
    that fails (refused, reset, closed, PostgreSQL refusing it) or `silent_looks` looks in a
    row with no answer within `answer_within`; one slow answer is not an outage."""

    def __init__(
        self, ctx, interval: float = 0.5, answer_within: float = 2.0, silent_looks: int = 3
    ) -> None:
        self.ctx, self.interval, self.answer_within = ctx, interval, answer_within
        self.silent_looks, self.silent = silent_looks, 0
        self.conn: asyncpg.Connection | None = None
        self.served: asyncio.AbstractEventLoop | None = None  # the request loop, for `_back`

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Run the watch beside the caller's loop; yield once its first look is done (/health
        answers from it), stop it (bounded) on the way out."""
        self.served = asyncio.get_running_loop()
        looked, stop = threading.Event(), threading.Event()
        thread = threading.Thread(
            target=asyncio.run, args=(self._run(looked, stop),), name="health-watch", daemon=True
        )
        thread.start()
        await anyio.to_thread.run_sync(looked.wait, self.answer_within * self.silent_looks)
        try:
            yield
        finally:
            stop.set()
            await anyio.to_thread.run_sync(thread.join, self.interval + self.answer_within)

    async def _run(self, looked: threading.Event, stop: threading.Event) -> None:
        """The watch's own loop: look until told to stop (then close the connection)."""
        try:
            await self.look()
            looked.set()
            while not stop.is_set():
                await asyncio.sleep(self.interval)
                await self.look()
        finally:
            looked.set()
            if self.conn is not None:
                self.conn.terminate()

    async def look(self) -> None:
        """Ping on the watch's connection (reconnecting as needed); then judge the pool."""
        try:
            async with asyncio.timeout(self.answer_within):
                await self._ping()
        except TimeoutError:
            self._drop()
            self.silent += 1
            if self.silent >= self.silent_looks:
                waited = self.silent * self.answer_within
                self._seen("unreachable", f"unreachable: no answer for {waited:g} s")
            return
        except (*UNAVAILABLE, OSError, asyncpg.PostgresError) as exc:
            self._drop()
            reason = str(exc) or "connection failed"
            self._seen("unreachable", f"unreachable: {type(exc).__name__}: {reason}")
            return
        self.silent = 0
        if self._seen(*self._pool_state()) and self.served is not None:
            asyncio.run_coroutine_threadsafe(_back(self.ctx), self.served)

    def _drop(self) -> None:
        if self.conn is not None:
            self.conn.terminate()
            self.conn = None

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
        pool, waited = self.ctx.pool, 0.0
        # read from the watch's thread while the request loop changes it: a waiter gone
        # between the look and the read is no waiter
        with contextlib.suppress(ValueError, RuntimeError):
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
        await ctx.store.check_connections()
    for woken in ctx.on_database_back:
        woken()
