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
    """Advances one MatchView per stream; the cache only saves work, the database decides.

    With `depth` > 1 it keeps each stream's last `depth` views: followers of the same batches
    that share the folder (the live hub, then the read models' runner in its lane of the
    tail) fold each event once — the later one is handed the view the first one made (events
    never change, so neither does the view after one)."""

    def __init__(self, registry: EventRegistry, size: int = 256, depth: int = 1) -> None:
        self.registry = registry
        self._views: OrderedDict[UUID, dict[int, MatchView]] = OrderedDict()
        self._size, self._depth = size, depth

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
        known = self._views.get(rec.stream_id)
        if known is not None and (folded := known.get(rec.version)) is not None:
            return folded  # a follower sharing this folder made it
        if rec.version == 1:
            return self._keep(advance(None, rec))
        view = known.get(rec.version - 1) if known is not None else None
        if view is None:
            return MISS
        return self._keep(advance(view, rec))

    def _keep(self, view: MatchView) -> MatchView:
        views = self._views
        known = views.get(view.match_id)
        if known is None:
            known = views[view.match_id] = {}
        known[view.version] = view
        # Versions come in order: the oldest kept is `depth` behind (else look for it).
        too_many = len(known) > self._depth
        if too_many and known.pop(view.version - self._depth, None) is None:
            del known[min(known)]
        views.move_to_end(view.match_id)
        if len(views) > self._size:
            views.popitem(last=False)
        return view

    def cached(self, stream: UUID) -> MatchView | None:
        """The newest view folded for a stream, if still cached."""
        known = self._views.get(stream)
        return known[max(known)] if known else None
