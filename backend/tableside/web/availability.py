"""While the database is gone: 503 with Retry-After (never 500), and a watch that notices.

`watch(ctx)` pings the database through the asyncpg pool every half second and keeps
`ctx.database_down` current (the pool replaces dead connections on its next acquire, so the
same ping also proves it has reconnected). `database_gate` (an app guard) answers API
requests with 503 at once while it is down, instead of letting them wait on a pool; an error
that still reaches a handler mid-request is one of UNAVAILABLE and gets the same 503.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import anyio.to_thread
import asyncpg
from eventsourcing.persistence import InterfaceError as StoreInterfaceError
from eventsourcing.persistence import OperationalError as StoreOperationalError
from litestar import Request, Response
from litestar.connection import ASGIConnection
from litestar.exceptions import HTTPException
from litestar.handlers.base import BaseRouteHandler

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


def unavailable_response(request: Request, exc: Exception) -> Response:
    """503 problem+json with Retry-After for a database that went away mid-request."""
    from tableside.web.problems import problem

    log.warning("database unavailable on %s %s: %s", request.method, request.url.path, exc)
    return problem(503, "Database unavailable", _DETAIL, headers={"Retry-After": RETRY_AFTER})


async def database_gate(connection: ASGIConnection, _: BaseRouteHandler) -> None:
    """Refuse API requests at once (503) while the watch sees the database down (async: a
    sync guard would cost every request a hop to a worker thread)."""
    ctx = connection.app.state.tableside
    if ctx.database_down and connection.url.path.startswith("/api/"):
        raise HTTPException(
            status_code=503,
            detail="Database unavailable",
            headers={"Retry-After": RETRY_AFTER},
            extra={"detail": _DETAIL},
        )


async def watch(ctx, interval: float = 0.5) -> None:
    """Keep `ctx.database_down` current until cancelled; wake the readers when it is back."""
    while True:
        try:
            async with asyncio.timeout(2):
                await ctx.pool.fetchval("SELECT 1")
        except (*UNAVAILABLE, OSError, asyncpg.PostgresError) as exc:
            if not ctx.database_down:
                log.warning("database unreachable (%s); answering 503 until it is back", exc)
            ctx.database_down = True
        else:
            if ctx.database_down:
                log.warning("database reachable again")
                with contextlib.suppress(Exception):  # best effort: the pool copes anyway
                    await anyio.to_thread.run_sync(ctx.store.check_connections)
                ctx.database_down = False
                for woken in ctx.on_database_back:
                    woken()
        await asyncio.sleep(interval)
