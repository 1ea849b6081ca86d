"""Run a command against a match stream: fold, decide, append once (sync, in a worker thread)."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from uuid import UUID

from tableside.disciplines.korona import commands as rc
from tableside.disciplines.korona import decide
from tableside.disciplines.korona.errors import RuleViolation
from tableside.eventlog import AppendResult, EventStore, StoredEvent, VersionConflict
from tableside.match.commands import CallPlayers
from tableside.match.events import MatchAbandoned, MatchScheduled, PlayersCalled
from tableside.match.folding import MatchView, Record, advance

Authorize = Callable[[MatchView], None]


class MatchNotFound(LookupError):
    """No match stream with this id."""


class MatchService:
    """Commands for match streams; keeps a per-process cache of folded views."""

    def __init__(self, store: EventStore, cache_size: int = 512) -> None:
        self.store = store
        self._views: dict[UUID, MatchView] = {}
        self._lock = threading.Lock()
        self._cache_size = cache_size

    def view(self, match_id: UUID) -> MatchView:
        """The match's current view (cached, caught up from the store)."""
        with self._lock:
            view = self._views.get(match_id)
        after = view.version if view else 0
        for stored in self.store.read(match_id, after_version=after):
            view = advance(view, _record(stored))
        if view is None:
            raise MatchNotFound(str(match_id))
        self._keep(view)
        return view

    def _keep(self, view: MatchView) -> None:
        """Cache a view (the oldest entry makes room)."""
        with self._lock:
            if view.match_id not in self._views and len(self._views) >= self._cache_size:
                self._views.pop(next(iter(self._views)))
            self._views[view.match_id] = view

    def create(
        self,
        match_id: UUID,
        command: rc.CreateMatch,
        venue: MatchScheduled,
        *,
        command_id: UUID,
        meta: Mapping[str, str],
        digest: bytes | None = None,
    ) -> AppendResult:
        """MatchCreated + MatchScheduled as one append at version 0."""
        from tableside.disciplines.korona.state import initial_state

        events = (*decide(initial_state(), command), venue)
        return self.store.append(
            match_id,
            events,
            expected_version=0,
            command_id=command_id,
            meta=meta,
            command_digest=digest,
        )

    def execute(
        self,
        match_id: UUID,
        command: object,
        *,
        expected_version: int,
        command_id: UUID,
        meta: Mapping[str, str],
        authorize: Authorize,
        digest: bytes | None = None,
    ) -> AppendResult:
        """Check the version, authorize, decide, append; VersionConflict / RuleViolation raise."""
        view = self._view_at(match_id, expected_version)
        if not view.state.created:  # e.g. a competition's stream: never write match events there
            raise MatchNotFound(str(match_id))
        authorize(view)
        if view.version != expected_version:
            raise VersionConflict(match_id, expected_version, view.version)
        events = _decide(view, command)
        try:
            result = self.store.append(
                match_id,
                events,
                expected_version=expected_version,
                command_id=command_id,
                meta=meta,
                command_digest=digest,
            )
        except VersionConflict:
            self._forget(match_id)  # another process wrote: read the news next time
            raise
        self._remember(view, events, result)
        return result

    def _view_at(self, match_id: UUID, expected_version: int) -> MatchView:
        """The cached view when it is not behind the version the caller saw (the append's
        version check covers what other processes wrote since: every change bumps the
        version); otherwise caught up from the store."""
        with self._lock:
            view = self._views.get(match_id)
        if view is not None and view.version >= expected_version:
            return view
        return self.view(match_id)

    def _remember(self, view: MatchView, events: tuple, result: AppendResult) -> None:
        """Advance the cached view by an append this process just made (one fold per event)."""
        if result.replayed or len(result.payloads) != len(events):
            self._forget(view.match_id)
            return
        now = datetime.now(UTC)
        for i, (event, position) in enumerate(zip(events, result.positions, strict=True)):
            name = result.payloads[i][0]
            rec = Record(view.match_id, result.first_version + i, position, name, event, now)
            view = advance(view, rec)
        self._keep(view)

    def _forget(self, match_id: UUID) -> None:
        with self._lock:
            self._views.pop(match_id, None)


def abandon(store_matches: MatchService, match_id: UUID, reason: str, at: str, meta) -> bool:
    """Close an unfinished match with MatchAbandoned and its reason; False if it had ended,
    was abandoned already, or moved on meanwhile (then nothing is written)."""
    view = store_matches.view(match_id)
    if view.abandoned or view.state.ended or not view.state.created:
        return False
    try:
        store_matches.store.append(
            match_id,
            (MatchAbandoned(reason=reason, at=at),),
            expected_version=view.version,
            command_id=uuid.uuid5(match_id, "abandoned"),
            meta=meta,
        )
    except VersionConflict:
        return False
    return True


def _decide(view: MatchView, command: object) -> tuple:
    if view.abandoned:
        raise RuleViolation("EKML §16(12)", f"the match was abandoned: {view.abandoned}", "type")
    if isinstance(command, CallPlayers):
        if view.state.ended:
            raise RuleViolation("EKML §16(12)", "the match has ended", "type")
        return (PlayersCalled(table=view.table or 0, at=command.at),)
    return decide(view.state, command)


def _record(stored: StoredEvent) -> Record:
    return Record(
        stored.stream_id,
        stored.version,
        stored.position,
        stored.type,
        stored.event,
        stored.recorded_at,
    )
