"""Public reads for spectators: a match's events as data (for a log in any language), and a
player's matches. No login: these carry nothing the live feed does not already send."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import get
from litestar.datastructures import State
from litestar.params import FromPath, Parameter, PathParameter

from tableside.web.consistency import MinPosition, settled
from tableside.web.context import context

_EVENTS = """
SELECT originator_version, notification_id, topic, state, recorded_at FROM stored_events
WHERE originator_id = $1 AND originator_version > $2 ORDER BY originator_version LIMIT $3
"""
_PLAYER = """
SELECT doc::text FROM match_live
WHERE doc->'side_a' ? $1 OR doc->'side_b' ? $1 ORDER BY updated_at DESC LIMIT $2
"""


@get("/api/matches/{match_id:uuid}/events", summary="A match's events as data")
async def match_events(
    state: State,
    match_id: FromPath[UUID],
    after: Annotated[int, Parameter(ge=0, le=10**9)] = 0,
    limit: Annotated[int, Parameter(ge=1, le=5000)] = 5000,
) -> list[dict[str, Any]]:
    """Every stored event of a match in version order: what the live feed's deltas carry."""
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


@get("/api/players/{name:str}/matches", summary="A player's matches")
async def player_matches(
    state: State,
    name: Annotated[str, PathParameter(min_length=1, max_length=80)],
    limit: Annotated[int, Parameter(ge=1, le=500)] = 100,
    min_position: MinPosition = 0,
) -> list[dict[str, Any]]:
    """The live documents of every match the player (exact name) is listed in, newest first."""
    await settled(state, "live", min_position)
    rows = await context(state).pool.fetch(_PLAYER, name, limit)
    return [msgspec.json.decode(r[0]) for r in rows]


SPECTATOR_ROUTES = [match_events, player_matches]
