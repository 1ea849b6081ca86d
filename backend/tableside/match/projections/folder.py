"""Folded match views by stream, kept in memory, refolded from the database on a miss."""

from __future__ import annotations

from collections import OrderedDict
from uuid import UUID

import asyncpg

from tableside.eventlog import EventRegistry
from tableside.eventlog.source import read_stream
from tableside.match.folding import MatchView, Record, advance, fold_records, is_match_event


class Folder:
    """Advances one MatchView per stream; the cache only saves work, the database decides."""

    def __init__(self, registry: EventRegistry, size: int = 256) -> None:
        self.registry = registry
        self._views: OrderedDict[UUID, MatchView] = OrderedDict()
        self._size = size

    async def advance(self, conn: asyncpg.Connection, rec: Record) -> MatchView | None:
        """The view after `rec`; None for events that are not a match's."""
        if not is_match_event(rec.event):
            return None
        view = self._views.get(rec.stream_id)
        if rec.version > 1 and (view is None or view.version != rec.version - 1):
            view = fold_records(
                await read_stream(conn, self.registry, rec.stream_id, rec.version - 1)
            )
        view = advance(view if rec.version > 1 else None, rec)
        self._views[rec.stream_id] = view
        self._views.move_to_end(rec.stream_id)
        if len(self._views) > self._size:
            self._views.popitem(last=False)
        return view

    def cached(self, stream: UUID) -> MatchView | None:
        """The last view folded for a stream, if still cached."""
        return self._views.get(stream)
