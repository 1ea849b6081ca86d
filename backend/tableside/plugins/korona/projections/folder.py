"""Folded match views by stream, kept in memory, refolded from the database on a miss."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable
from uuid import UUID

import asyncpg

from tableside.eventlog import EventRegistry
from tableside.eventlog.source import read_stream
from tableside.plugins.korona.folding import (
    MatchView,
    Record,
    advance,
    fold_records,
    is_match_event,
)

MISS = object()  # Folder.step: the view before this event must be read from the database


class Folder:
    """Advances one MatchView per stream; the cache only saves work, the database decides."""

    def __init__(self, registry: EventRegistry, size: int = 256) -> None:
        self.registry = registry
        self._views: OrderedDict[UUID, MatchView] = OrderedDict()
        self._size = size

    async def advance(
        self,
        conn: asyncpg.Connection,
        rec: Record,
        before_read: Callable[[], Awaitable[None]] | None = None,
    ) -> MatchView | None:
        """The view after `rec`; None for events that are not a match's. On a miss the stream
        is read on `conn`, after `before_read` (which frees the connection) when given."""
        view = self.step(rec)
        if view is not MISS:
            return view
        if before_read is not None:
            await before_read()
        before = fold_records(
            await read_stream(conn, self.registry, rec.stream_id, rec.version - 1)
        )
        return self._keep(advance(before, rec))

    def step(self, rec: Record) -> MatchView | object | None:
        """`advance` without I/O: the view, None for an event that is not a match's, or MISS
        when the stream's view before `rec` is not cached (the caller reads it)."""
        if not is_match_event(rec.event):
            return None
        if rec.version == 1:
            return self._keep(advance(None, rec))
        view = self._views.get(rec.stream_id)
        if view is None or view.version != rec.version - 1:
            return MISS
        return self._keep(advance(view, rec))

    def _keep(self, view: MatchView) -> MatchView:
        views = self._views
        views[view.match_id] = view
        views.move_to_end(view.match_id)
        if len(views) > self._size:
            views.popitem(last=False)
        return view

    def cached(self, stream: UUID) -> MatchView | None:
        """The last view folded for a stream, if still cached."""
        return self._views.get(stream)
