"""Read your own writes: wait until a read model has folded a position a command returned."""

from __future__ import annotations

import asyncio
from typing import Annotated, TypeAlias

import asyncpg
from litestar.datastructures import State
from litestar.exceptions import HTTPException
from litestar.params import Parameter

from tableside.web.context import context
from tableside.web.problems import Unprocessable, coded

MinPosition = Annotated[
    int,
    Parameter(
        ge=0,
        le=10**12,
        description="Wait (up to 2 s) until the read model includes this position "
        "(e.g. the last of a command's `positions`).",
    ),
]

Db: TypeAlias = asyncpg.Pool | asyncpg.Connection
_TRACKED = "SELECT position FROM projection_tracking WHERE name = $1"
_HEAD = "SELECT coalesce(max(notification_id), 0) FROM stored_events"


async def settled(state: State, projection: str, position: int, timeout: float = 2.0) -> None:
    """`settled_on` the pool of the app `state` belongs to."""
    await settled_on(context(state).pool, projection, position, timeout)


async def settled_on(
    pool: asyncpg.Pool, projection: str, position: int, timeout: float = 2.0
) -> None:
    """Return once `projection` has reached `position`; 422 past the head, 503 on timeout."""
    if position <= 0:
        return
    if position > await pool.fetchval(_HEAD):
        raise Unprocessable(
            "min_position is past the last stored event",
            extra=[{"key": "min_position", "source": "query"}],
        )
    await _reached(pool, projection, position, timeout)


async def caught_up(db: Db, projection: str, timeout: float = 2.0) -> None:
    """Return once `projection` has folded everything stored so far (503 on timeout): for a
    check that must see every write before it, e.g. what holds a table before a call. `db`:
    the pool, or the connection a caller holds (never the pool while holding one)."""
    await _reached(db, projection, await db.fetchval(_HEAD), timeout)


async def _reached(db: Db, projection: str, position: int, timeout: float) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while await db.fetchval(_TRACKED, projection) < position:
        if loop.time() > deadline:
            raise HTTPException(
                status_code=503,
                detail="The read model is catching up",
                extra=coded("catching_up"),
                headers={"Retry-After": "1"},
            )
        await asyncio.sleep(0.01)
