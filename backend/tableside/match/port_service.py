"""Matches of any registered discipline through its port alone (decision 0214): fold,
authorize, check the version, decide, append once — the one command path of every
discipline. A command from a route runs on the event loop (`execute_async`: the fold from
the per-process cache when it is not behind, else read in a worker thread; the decision
here, pure and small; the append batched with the loop's others, issue 32); the house's own
writers (a competition's flow, the demo) call `execute` and `create` in a worker thread.

A stream is a discipline's when its fold holds a match (`Discipline.live`): the fold of
another discipline's stream (or a competition's) holds none, so a command to it is
MatchNotFound, never a write.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from uuid import UUID

import anyio.to_thread

from tableside.eventlog import AppendResult, EventStore, VersionConflict
from tableside.eventlog.streams import Folded, Streams
from tableside.match.discipline import Discipline, Disciplines
from tableside.match.errors import MatchNotFound
from tableside.web.auth import Principal


class Matches:
    """One discipline's match streams, on the one stream service (a per-process cached
    fold: the store's version check decides, the cache only saves work)."""

    def __init__(self, store: EventStore, discipline: Discipline, cache_size: int = 256):
        self.store, self.discipline = store, discipline
        self.streams: Streams[Any] = Streams(store, discipline.fold, cache_size=cache_size)

    def view(self, match_id: UUID) -> Any:
        """The stream's fold as it stands (MatchNotFound if it has no event)."""
        folded = self.streams.current(match_id)
        if folded.value is None:
            raise MatchNotFound(str(match_id))
        return folded.value

    def current(self, match_id: UUID) -> Folded[Any]:
        """The match's fold and version (MatchNotFound unless the stream holds a match)."""
        return self._live(self.streams.current(match_id), match_id)

    def at(self, match_id: UUID, version: int) -> tuple[Any, Any]:
        """(fold, event) after stream version `version`, that being one of its events."""
        folded, last = None, None
        for stored in self.store.read(match_id):
            if stored.version > version:
                break
            folded = self.discipline.fold(folded, stored)
            if type(stored.event) in self.discipline.event_types:
                last = stored
        if last is None or last.version != version or not self.discipline.live(folded):
            raise MatchNotFound(f"{match_id} at version {version}")
        return folded, last.event

    def create(
        self,
        match_id: UUID,
        events: Sequence[Any],
        *,
        command_id: UUID,
        meta: Mapping[str, str],
        digest: bytes | None = None,
    ) -> AppendResult:
        """A new stream's events (a `Creation`'s), appended at version 0."""
        return self.streams.append(
            match_id, events, base=Folded(0, None), command_id=command_id, meta=meta, digest=digest
        )

    def execute(
        self,
        match_id: UUID,
        command: Any,
        *,
        expected_version: int,
        command_id: UUID,
        meta: Mapping[str, str],
        principal: Principal | None = None,
        current: Any = None,
        digest: bytes | None = None,
    ) -> AppendResult:
        """Authorize, check the version, decide, append; VersionConflict / RuleError /
        PermissionDenied raise (sync: in a worker thread)."""
        base = self.streams.at_least(match_id, expected_version)
        events = self._checked(base, match_id, command, expected_version, principal, current)
        return self.streams.append(
            match_id, events, base=base, command_id=command_id, meta=meta, digest=digest
        )

    async def execute_async(
        self,
        match_id: UUID,
        command: Any,
        *,
        expected_version: int,
        command_id: UUID,
        meta: Mapping[str, str],
        principal: Principal | None = None,
        current: Any = None,
        digest: bytes | None = None,
    ) -> AppendResult:
        """`execute` on the event loop (no worker-thread hop when the fold is cached)."""
        base = self.streams.cached_at_least(match_id, expected_version)
        if base is None:
            base = await anyio.to_thread.run_sync(self.streams.current, match_id)
        events = self._checked(base, match_id, command, expected_version, principal, current)
        return await self.streams.append_async(
            match_id, events, base=base, command_id=command_id, meta=meta, digest=digest
        )

    def _checked(
        self,
        base: Folded[Any],
        match_id: UUID,
        command: Any,
        version: int,
        principal: Principal | None,
        current: Any,
    ) -> tuple[Any, ...]:
        """The command's events decided on `base`: a match, the caller's to record (before
        the version: a judge of another table is told so, not that it moved on), at the
        version the caller saw."""
        folded = self._live(base, match_id).value
        if principal is not None:
            self.discipline.authorize(principal, folded, current)
        if base.version != version:
            raise VersionConflict(match_id, version, base.version)
        return tuple(self.discipline.decide_on(folded, command, principal))

    def _live(self, folded: Folded[Any], match_id: UUID) -> Folded[Any]:
        if folded.value is None or not self.discipline.live(folded.value):
            raise MatchNotFound(str(match_id))
        return folded


class PortMatches:
    """Every registered discipline's matches (`of(name)`: one discipline's)."""

    def __init__(self, store: EventStore, disciplines: Disciplines, cache_size: int = 512):
        self.store, self.disciplines = store, disciplines
        self._of = {d.name: Matches(store, d, cache_size) for d in disciplines}

    def of(self, name: str) -> Matches:
        """The matches of discipline `name` (UnknownDiscipline if none is registered)."""
        return self._of[self.disciplines.named(name).name]
