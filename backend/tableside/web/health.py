"""GET /health: what the health watch saw last (web/availability.py, its own connection):
ok, `pool exhausted` or `unreachable` with the reason, which PostgreSQL, which schema."""

from __future__ import annotations

from litestar import Response, get
from litestar.datastructures import State

from tableside.web.availability import RETRY_AFTER


@get("/health")
async def health(state: State) -> Response[dict[str, object]]:
    """200 with versions while the database answers and requests get connections, else 503
    saying which: the pool is exhausted (the database answers) or it is unreachable."""
    seen = state.tableside.health
    versions = {"server_version": seen.server_version, "schema_version": seen.schema_version}
    if seen.state == "ok":
        return Response({"status": "ok", "database": {"reachable": True, **versions}})
    database = {
        "reachable": seen.state != "unreachable",
        "state": seen.state,
        "error": seen.reason,
        **versions,
    }
    body = {"status": "degraded", "database": database}
    return Response(body, status_code=503, headers={"Retry-After": RETRY_AFTER})
