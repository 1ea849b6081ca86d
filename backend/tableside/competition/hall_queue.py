"""The hall's call queue (issue 13): every match waiting for a table, of every competition
not finished, in the order its competition will call them, and whether it can be called now
(not while one of its players is at a table, EKML §17(3)).

Each competition calls its own matches (call-next takes them in this order); the queue lets
the TD and the hall see what is waiting everywhere: the first waiting match of each
competition, then the second of each, and so on, those that can be called now first.
"""

from __future__ import annotations

from collections.abc import Callable
from uuid import UUID

import anyio.to_thread
import asyncpg
import msgspec

from tableside.competition.hall import OPEN_COMPETITIONS, entrant_name
from tableside.competition.rules.matches import queue
from tableside.competition.rules.state import Competition


class Waiting(msgspec.Struct, frozen=True):
    """A match waiting for a table."""

    competition_id: str
    competition: str
    match_id: str  # the competition's match id (`R2-3`)
    players: str
    place: int  # 1: the next its competition calls
    ready: bool  # false: one of its players is at a table (or in a match ahead of it)


async def waiting(pool: asyncpg.Pool, state_of: Callable[[UUID], Competition]) -> list[Waiting]:
    """The hall's queue, read from each unfinished competition's stream."""
    names = {str(r[0]): r[1] for r in await pool.fetch(OPEN_COMPETITIONS)}
    found = await anyio.to_thread.run_sync(_all, names, state_of)
    return sorted(found, key=lambda w: (not w.ready, w.place, w.competition, w.match_id))


def _all(names: dict[str, str], state_of: Callable[[UUID], Competition]) -> list[Waiting]:
    out = []
    for comp_id, name in names.items():
        state = state_of(UUID(comp_id))
        for place, (match_id, sides, ready) in enumerate(queue(state), start=1):
            players = " – ".join(entrant_name(state, e) for e in sides)
            out.append(Waiting(comp_id, name, match_id, players, place, ready))
    return out
