"""Whether the caller may watch a match, asked by each of the kernel's public reads of one
(its view now and at a version, its exports, its events as data): the match's discipline
says, on the match's fold as it stands now (`Discipline.watchable`: KSI 1.6.4, spectators
barred at a player's request, refused with its code to all but the staff, the auditor and
the table's device). A read of an earlier version is refused alike: the bar is on the match,
not on its later moves."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import anyio.to_thread

from tableside.eventlog.source import read_stream
from tableside.match.discipline import Discipline
from tableside.web.context import Context


async def watched(connection: Any, ctx: Context, d: Discipline, match_id: UUID) -> None:
    """Refuse (403) the caller a match its discipline keeps from them: on the match's fold
    now, for a discipline with a `watch_rule` (any other's matches are public: no fold)."""
    if d.watch_rule is None:
        return
    folded = await anyio.to_thread.run_sync(ctx.plays.of(d.name).current, match_id)
    await d.watchable(connection, folded.value)


async def watched_stream(connection: Any, ctx: Context, match_id: UUID) -> None:
    """Refuse the caller a stream whose discipline keeps it from them (a stream no
    discipline's: a venue's or a competition's, nothing to refuse; no discipline with a
    `watch_rule`: nothing read)."""
    if all(d.watch_rule is None for d in ctx.disciplines):
        return
    async with ctx.pool.acquire() as conn:
        first = await read_stream(conn, ctx.registry, match_id, 1)
    d = ctx.disciplines.of_event(first[0].event) if first else None
    if d is not None:
        await watched(connection, ctx, d, match_id)
