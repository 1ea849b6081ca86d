"""Which match each table plays now, kept in the process from the log it follows (issue 15):
a table judge's command is authorised without a read of a read model on its way.

The newest `MatchScheduled` of a table owns it. The live hub hands every event it follows to
`follow` (from the head it started at); a table it has seen scheduled since then is known for
good. A table it has not seen is read once from each discipline's read model of the hall's
tables (`Tables.current`) — and kept as known only when every such model had already passed
the hub's starting point, so nothing between the two is missed; until then it is read again
on each use, as before.
"""

from __future__ import annotations

from uuid import UUID

import asyncpg

from tableside.eventlog.source import Record
from tableside.match.events import MatchScheduled

Current = tuple[UUID, int]  # (match_id, position of its MatchScheduled)


class TablesNow:
    """table → (match_id, scheduled position) of the match it plays now; `reads`: each
    discipline's `Tables.current` (match_id, scheduled position, its model's position)."""

    def __init__(self, reads: tuple[str, ...] = ()) -> None:
        self._reads = reads
        self._now: dict[int, Current] = {}
        self._known: set[int] = set()
        self._since: int | None = None  # the position the hub started following after

    def follow(self, position: int, records: list[Record]) -> None:
        """The hub's batch after `position`: every scheduling takes its table."""
        if self._since is None:
            self._since = position
        for rec in records:
            if isinstance(rec.event, MatchScheduled) and rec.event.table is not None:
                self._keep(rec.event.table, (rec.stream_id, rec.position))
                self._known.add(rec.event.table)

    async def current(self, pool: asyncpg.Pool, table: int | None) -> Current | None:
        """The match `table` plays now (None: no table, or nothing scheduled on it)."""
        if table is None or table in self._known:
            return self._now.get(table) if table is not None else None
        passed = self._since is not None
        for read in self._reads:
            row = await pool.fetchrow(read, table)
            if row is not None and row[0] is not None:
                self._keep(table, (row[0], row[1] or 0))
            passed = passed and row is not None and row[2] >= self._since
        if passed:
            self._known.add(table)
        return self._now.get(table)

    def _keep(self, table: int, now: Current) -> None:
        old = self._now.get(table)
        if old is None or now[1] > old[1]:
            self._now[table] = now
