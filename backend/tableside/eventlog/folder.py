"""The process's fold cache of one kind of stream on the read side: one value per stream,
advanced one stored event at a time, refolded from the database on a miss.

A slice says what it folds as a `StreamFold` (the event types, `advance(value | None,
record)`); the composition root makes one `Folder` of it per process and hands it to every
follower of the tail that folds those streams — the live hub's renderer first, then the read
model in its lane — so each event is folded once per process (issue 31). The write side's cache
is `eventlog/streams.py`; this one only saves work, the database decides.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Generic, TypeVar
from uuid import UUID

import asyncpg

from tableside.eventlog import EventRegistry
from tableside.eventlog.source import Record, read_stream

V = TypeVar("V")


class _Miss:
    """The type of MISS."""


MISS = _Miss()  # Folder.step: the value before this event must be read from the database


@dataclass(frozen=True)
class StreamFold(Generic[V]):
    """What one kind of stream folds: the event types it takes (others are not its
    business) and how one more stored event advances a stream's value (None: nothing yet)."""

    types: frozenset[type]
    advance: Callable[[V | None, Record], V]

    def whole(self, records: list[Record]) -> V | None:
        """A stream's stored events folded from the start (those it takes)."""
        value, types, advance = None, self.types, self.advance
        for rec in records:
            if type(rec.event) in types:
                value = advance(value, rec)
        return value


class Folder(Generic[V]):
    """Advances one value per stream; keeps the `size` streams used last.

    With `depth` > 1 it keeps each stream's last `depth` values: followers of the same batches
    that share the folder (the live hub, then a read model in its lane of the tail) fold each
    event once — the later one is handed the value the first one made (events never change,
    so neither does the value after one)."""

    def __init__(
        self, registry: EventRegistry, fold: StreamFold[V], size: int = 256, depth: int = 1
    ) -> None:
        self.registry, self.fold = registry, fold
        self._types, self._advance = fold.types, fold.advance
        self._values: OrderedDict[UUID, dict[int, V]] = OrderedDict()
        self._size, self._depth = size, depth

    async def advance(
        self,
        conn: asyncpg.Connection,
        rec: Record,
        before_read: Callable[[], Awaitable[None]] | None = None,
    ) -> V | None:
        """The value after `rec`; None for an event it does not take. On a miss the stream
        is read on `conn`, after `before_read` (which frees the connection) when given."""
        value = self.step(rec)
        if not isinstance(value, _Miss):
            return value
        if before_read is not None:
            await before_read()
        before = self.fold.whole(
            await read_stream(conn, self.registry, rec.stream_id, rec.version - 1)
        )
        return self._keep(rec, self._advance(before, rec))

    def step(self, rec: Record) -> V | _Miss | None:
        """`advance` without I/O: the value, None for an event it does not take, or MISS
        when the stream's value before `rec` is not cached (the caller reads it)."""
        if type(rec.event) not in self._types:
            return None
        version = rec.version
        known = self._values.get(rec.stream_id)
        if known is not None:
            if (folded := known.get(version)) is not None:
                return folded  # a follower sharing this folder made it
            if (value := known.get(version - 1)) is not None:
                return self._keep_known(known, rec, self._advance(value, rec))
        if version == 1:
            return self._keep(rec, self._advance(None, rec))
        return MISS

    def _keep(self, rec: Record, value: V) -> V:
        values, stream = self._values, rec.stream_id
        known = values.get(stream)
        if known is not None:
            return self._keep_known(known, rec, value)
        values[stream] = {rec.version: value}
        if len(values) > self._size:
            values.popitem(last=False)
        return value

    def _keep_known(self, known: dict[int, V], rec: Record, value: V) -> V:
        """Keep `value` for a stream already cached (it stays cached: it is used last)."""
        version = rec.version
        known[version] = value
        # Versions come in order: the oldest kept is `depth` behind (else look for it).
        if len(known) > self._depth and known.pop(version - self._depth, None) is None:
            del known[min(known)]
        self._values.move_to_end(rec.stream_id)
        return value

    def cached(self, stream: UUID) -> V | None:
        """The newest value folded for a stream, if still cached."""
        known = self._values.get(stream)
        return known[max(known)] if known else None


class Folders:
    """The process's fold caches, one `Folder` per `StreamFold`, made when first asked for:
    the composition root hands the same `Folders` to the hub's renderers and to the read
    models, and each takes the one of the streams it folds."""

    def __init__(self, registry: EventRegistry, size: int = 256, depth: int = 1) -> None:
        self.registry, self._size, self._depth = registry, size, depth
        self._folders: dict[StreamFold, Folder] = {}

    def of(self, fold: StreamFold[V]) -> Folder[V]:
        """The process's one folder of the streams `fold` folds."""
        folder = self._folders.get(fold)
        if folder is None:
            folder = self._folders[fold] = Folder(self.registry, fold, self._size, self._depth)
        return folder
