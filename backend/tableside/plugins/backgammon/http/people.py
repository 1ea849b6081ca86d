"""The people known to the event, whom a backgammon jury may be chosen from (KSI 1.3.2): the
entrants of the event's backgammon competitions (the competition's read model) and its staff.
Moved here from the competition's reads (decision 0149): a jury is backgammon's word."""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import get
from litestar.datastructures import State

from tableside.plugins.backgammon.competition_rules import NAME
from tableside.web.context import context
from tableside.web.guards import signed_in

_DOCS = "SELECT doc::text FROM competition_view WHERE doc->'guide'->>'sport' = $1"
_STAFF = "SELECT username FROM staff_accounts"


@get(
    "/api/event/people",
    summary="The people known to the event",
    guards=[signed_in("head_judge", "secretary")],
)
async def get_people(state: State) -> dict[str, Any]:
    """Whom a jury may be chosen from (KSI 1.3.2): everyone entered in a backgammon competition
    of this event and every staff account, by name, sorted. The engine still refuses the TD and
    the match's players (whatever the letter case); the face leaves them out of its list."""
    return {"people": await event_people(context(state).pool)}


async def event_people(pool: Any) -> list[str]:
    """The event's people by name, sorted: its staff accounts and its backgammon entrants."""
    names = {r[0] for r in await pool.fetch(_STAFF)}
    for row in await pool.fetch(_DOCS, NAME):
        for entrant in msgspec.json.decode(row[0])["entrants"]:
            names |= {m["name"] for m in entrant["members"]} or {entrant["name"]}
    return sorted(n for n in names if n.strip())
