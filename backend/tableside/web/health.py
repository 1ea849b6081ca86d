"""GET /health: is the database reachable, which PostgreSQL, which schema version."""

from __future__ import annotations

import asyncio

import asyncpg
from litestar import Response, get
from litestar.datastructures import State

from tableside.web.availability import RETRY_AFTER

_SERVER = "SELECT current_setting('server_version'), to_regclass('schema_migrations')"
_SCHEMA = "SELECT max(version) FROM schema_migrations"


@get("/health")
async def health(state: State) -> Response[dict[str, object]]:
    """200 with versions when the database answers within 2 s, else 503."""
    try:
        async with asyncio.timeout(2):
            server_version, migrations_table = await state.db_pool.fetchrow(_SERVER)
            schema = await state.db_pool.fetchval(_SCHEMA) if migrations_table else None
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        body = {"status": "degraded", "database": {"reachable": False, "error": str(exc)}}
        return Response(body, status_code=503, headers={"Retry-After": RETRY_AFTER})
    database = {"reachable": True, "server_version": server_version, "schema_version": schema}
    return Response({"status": "ok", "database": database}, status_code=200)
