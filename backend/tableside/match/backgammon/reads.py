"""Backgammon reads from the read model `backgammon` (`backgammon_matches`): the staff's list of
matches, newest activity first, a page at a time."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import get
from litestar.datastructures import State
from litestar.params import Parameter

from tableside.web.consistency import MinPosition, settled
from tableside.web.context import context
from tableside.web.guards import signed_in

STAFF_READERS = ("head_judge", "secretary", "auditor")
COLUMNS = (
    "match_id, player_a, player_b, length, score_a, score_b, games, status, winner, confirmed,"
    " version, position, started_at, updated_at"
)
_PAGE = f"""
SELECT {COLUMNS} FROM backgammon_matches
WHERE ($1::bigint IS NULL OR position < $1)
ORDER BY position DESC LIMIT $2
"""


def match_row(r) -> dict[str, Any]:
    """One row of `backgammon_matches` as the API shows it."""
    return {
        "discipline": "backgammon",
        "match_id": str(r["match_id"]),
        "players": [r["player_a"], r["player_b"]],
        "length": r["length"],
        "score": [r["score_a"], r["score_b"]],
        "games": r["games"],
        "status": r["status"],
        "winner": r["winner"] or None,
        "confirmed": r["confirmed"],
        "version": r["version"],
        "position": r["position"],
        "started_at": r["started_at"].isoformat(),
        "updated_at": r["updated_at"].isoformat(),
    }


@get(
    "/api/backgammon/matches",
    summary="Backgammon matches, newest activity first (staff)",
    guards=[signed_in(*STAFF_READERS)],
)
async def list_bg_matches(
    state: State,
    before: Annotated[int | None, Parameter(ge=1, le=10**12)] = None,
    limit: Annotated[int, Parameter(ge=1, le=100)] = 30,
    min_position: MinPosition = 0,
) -> dict[str, Any]:
    """A page of matches; `next` is the `before` of the following page (None at the end)."""
    await settled(state, "backgammon", min_position)
    rows = await context(state).pool.fetch(_PAGE, before, limit + 1)
    items = [match_row(r) for r in rows[:limit]]
    return {"items": items, "next": items[-1]["position"] if len(rows) > limit else None}


BACKGAMMON_READ_ROUTES = [list_bg_matches]
