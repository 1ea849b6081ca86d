"""One stream service for every aggregate: fold, check the version, append once, retry.

An aggregate (a korona match, a backgammon match, a competition) hands `Streams` its fold,
`fold(folded | None, record) -> folded`, where a record has the fields `stream_id, version,
position, type, event, recorded_at, command_id` — a `StoredEvent` read back, or an `Appended`
for an event this process has just appended (so each event is folded once per process). The
per-process cache only saves work: the store's version check under its lock decides, and a
conflict drops the cached fold so the next use reads the news.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar
from uuid import UUID

from tableside.eventlog.eventstore import EventStore
from tableside.eventlog.records import AppendResult, VersionConflict
from tableside.eventlog.source import Record

F = TypeVar("F")
_log = logging.getLogger(__name__)
Fold = Callable[[Any, Any], Any]


@dataclass(frozen=True, slots=True)
class Appended(Record):
    """An event this process has just appended (decoded from the bytes it stored), with
    what a fold reads of a stored one."""

    command_id: UUID


@dataclass(frozen=True, slots=True)
class Folded(Generic[F]):
    """A stream's fold and the version it has reached (0 and None: no such stream yet)."""

    version: int
    value: F | None


class Streams(Generic[F]):
    """Folded streams of one aggregate type: a bounded, thread-safe cache over the store."""

    def __init__(self, store: EventStore, fold: Fold, *, cache_size: int = 256) -> None:
        self.store = store
        self._fold = fold
        self._cache: OrderedDict[UUID, Folded[F]] = OrderedDict()
        self._lock = threading.Lock()
        self._size = cache_size

    def current(self, stream_id: UUID) -> Folded[F]:
        """The stream folded to its last stored version (the cache caught up from the store)."""
        folded = self._cached(stream_id) or Folded(0, None)
        version, value = folded.version, folded.value
        for stored in self.store.read(stream_id, after_version=version):
            version, value = stored.version, self._fold(value, stored)
        folded = Folded(version, value)
        if version:
            self._keep(stream_id, folded)
        return folded

    def at_least(self, stream_id: UUID, version: int) -> Folded[F]:
        """The cached fold when it is not behind `version` (what the caller saw; the append's
        version check covers what other processes wrote since), else `current`."""
        folded = self._cached(stream_id)
        if folded is not None and folded.version >= version:
            return folded
        return self.current(stream_id)

    def append(
        self,
        stream_id: UUID,
        events: Sequence[Any],
        *,
        base: Folded[F],
        command_id: UUID,
        meta: Mapping[str, str] | None = None,
        digest: bytes | None = None,
    ) -> AppendResult:
        """Append `events` decided on `base` at its version; the cache advances by them."""
        try:
            result = self.store.append(
                stream_id,
                events,
                expected_version=base.version,
                command_id=command_id,
                meta=meta,
                command_digest=digest,
            )
        except VersionConflict:
            self.forget(stream_id)  # another writer moved the stream: read the news next time
            raise
        self._advance(stream_id, base, events, result, command_id)
        return result

    def cached_at_least(self, stream_id: UUID, version: int) -> Folded[F] | None:
        """The cached fold when it is not behind `version` — what `at_least` answers without
        a read (None: `at_least` would read, so call it in a worker thread)."""
        folded = self._cached(stream_id)
        return folded if folded is not None and folded.version >= version else None

    async def append_async(
        self,
        stream_id: UUID,
        events: Sequence[Any],
        *,
        base: Folded[F],
        command_id: UUID,
        meta: Mapping[str, str] | None = None,
        digest: bytes | None = None,
    ) -> AppendResult:
        """`append` for a caller on the event loop (the store's loop-side group commit)."""
        try:
            result = await self.store.append_async(
                stream_id,
                events,
                expected_version=base.version,
                command_id=command_id,
                meta=meta,
                command_digest=digest,
            )
        except VersionConflict:
            self.forget(stream_id)
            raise
        self._advance(stream_id, base, events, result, command_id)
        return result

    def submit(
        self,
        stream_id: UUID,
        decide: Callable[[F | None], Sequence[Any] | None],
        *,
        command_id: UUID,
        meta: Mapping[str, str] | None = None,
        attempts: int = 5,
    ) -> AppendResult | None:
        """Decide on the current fold and append, deciding again on a conflict (policies that
        act on the log, not on a person's view); None when `decide` finds nothing to do."""
        for _ in range(attempts):
            base = self.current(stream_id)
            events = decide(base.value)
            if not events:
                return None
            try:
                return self.append(stream_id, events, base=base, command_id=command_id, meta=meta)
            except VersionConflict:
                continue
        raise VersionConflict(stream_id, base.version, self.store.current_version(stream_id))

    def forget(self, stream_id: UUID) -> None:
        """Drop a stream's cached fold."""
        with self._lock:
            self._cache.pop(stream_id, None)

    def _cached(self, stream_id: UUID) -> Folded[F] | None:
        with self._lock:
            return self._cache.get(stream_id)

    def _keep(self, stream_id: UUID, folded: Folded[F]) -> None:
        """Cache a fold unless a newer one is there already; the least recently kept goes."""
        with self._lock:
            old = self._cache.get(stream_id)
            if old is not None and old.version > folded.version:
                return
            self._cache[stream_id] = folded
            self._cache.move_to_end(stream_id)
            if len(self._cache) > self._size:
                self._cache.popitem(last=False)

    def _advance(self, stream_id, base, events, result: AppendResult, command_id) -> None:
        """Fold a fresh append into the cache (one fold per event per process)."""
        if result.replayed or len(result.payloads) != len(events):
            self.forget(stream_id)  # a replay answers an earlier command: nothing new to fold
            return
        now, value, decode = datetime.now(UTC), base.value, self.store.registry.decode
        stored = zip(result.payloads, result.positions, strict=True)
        for i, ((name, payload), position) in enumerate(stored):
            event = decode(name, payload)  # the stored bytes: exactly what a reader would fold
            fresh = Appended(
                stream_id, result.first_version + i, position, name, event, now, command_id
            )
            try:
                value = self._fold(value, fresh)
            except Exception:  # the append stands; the next use folds it from the store
                _log.exception("stream %s: could not fold a fresh append", stream_id)
                self.forget(stream_id)
                return
        self._keep(stream_id, Folded(result.last_version, value))
