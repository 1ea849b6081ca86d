"""Public reads for spectators: a match's events as data (for a log in any language), whatever
its discipline. No login: these carry nothing the live feed does not already send (a
player's matches are the disciplines' reads, e.g. plugins/korona/http/read_routes.py)."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import Request, get
from litestar.datastructures import State
from litestar.params import FromPath, Parameter

from tableside.match.http.watching import watched_stream
from tableside.web.context import context

_EVENTS = """
SELECT originator_version, notification_id, topic, state, recorded_at FROM stored_events
WHERE originator_id = $1 AND originator_version > $2 ORDER BY originator_version LIMIT $3
"""


@get("/api/matches/{match_id:uuid}/events", summary="A match's events as data")
async def match_events(
    request: Request,
    state: State,
    match_id: FromPath[UUID],
    after: Annotated[int, Parameter(ge=0, le=10**9)] = 0,
    limit: Annotated[int, Parameter(ge=1, le=5000)] = 5000,
) -> list[dict[str, Any]]:
    """Every stored event of a match in version order: what the live feed's deltas carry
    (to whoever may watch the match: KSI 1.6.4)."""
    await watched_stream(request, context(state), match_id)
    rows = await context(state).pool.fetch(_EVENTS, match_id, after, limit)
    return [
        {
            "version": r[0],
            "position": r[1],
            "type": r[2],
            "event": msgspec.json.decode(r[3]),
            "recorded_at": r[4].isoformat(),
        }
        for r in rows
    ]


SPECTATOR_ROUTES = [match_events]
