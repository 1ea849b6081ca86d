"""Run a command against a korona match stream: fold, decide, append once (sync, in a worker
thread)."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from uuid import UUID

import anyio.to_thread

from tableside.disciplines.korona import commands as rc
from tableside.disciplines.korona import decide
from tableside.disciplines.korona.errors import RuleViolation
from tableside.eventlog import AppendResult, EventStore, VersionConflict
from tableside.eventlog.streams import Folded, Streams
from tableside.match.errors import MatchNotFound
from tableside.match.events import MatchAbandoned, MatchScheduled, PlayersCalled
from tableside.plugins.korona.commands import CallPlayers, CloseMatch
from tableside.plugins.korona.folding import MatchView, advance

Authorize = Callable[[MatchView], None]
CLOSED = "closed_by_head_judge"  # MatchAbandoned's reason for CloseMatch (words: codes.*.json)


class MatchService:
    """Commands for match streams, on the one stream service (a per-process cached fold)."""

    def __init__(self, store: EventStore, cache_size: int = 512) -> None:
        self.store = store
        self.streams: Streams[MatchView] = Streams(store, advance, cache_size=cache_size)

    def view(self, match_id: UUID) -> MatchView:
        """The match's current view (cached, caught up from the store)."""
        return _view(self.streams.current(match_id), match_id)

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
        return self.streams.append(
            match_id, events, base=Folded(0, None), command_id=command_id, meta=meta, digest=digest
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
        base = self.streams.at_least(match_id, expected_version)
        events = _checked(base, match_id, command, expected_version, authorize)
        return self.streams.append(
            match_id, events, base=base, command_id=command_id, meta=meta, digest=digest
        )

    async def execute_async(
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
        """`execute` on the event loop (issue 32: no worker-thread hop per command): the fold
        from the cache when it is not behind (else read in a worker thread), the decision
        here (pure, small), the append batched with the loop's others."""
        base = self.streams.cached_at_least(match_id, expected_version)
        if base is None:
            base = await anyio.to_thread.run_sync(self.streams.current, match_id)
        events = _checked(base, match_id, command, expected_version, authorize)
        return await self.streams.append_async(
            match_id, events, base=base, command_id=command_id, meta=meta, digest=digest
        )


def _checked(
    base: Folded[MatchView], match_id: UUID, command: object, version: int, authorize: Authorize
) -> tuple:
    """The command's events decided on `base` (authorized, at the version the caller saw)."""
    view = _view(base, match_id)
    if not view.state.created:  # e.g. a competition's stream: never write match events there
        raise MatchNotFound(str(match_id))
    authorize(view)
    if view.version != version:
        raise VersionConflict(match_id, version, view.version)
    return _decide(view, command)


def _view(folded: Folded[MatchView], match_id: UUID) -> MatchView:
    if folded.value is None:
        raise MatchNotFound(str(match_id))
    return folded.value


def abandon(
    store_matches: MatchService, match_id: UUID, reason: str, at: str, meta, won_by: str = ""
) -> bool:
    """Close an unfinished match with MatchAbandoned and its reason (a forfeit: the side it
    was given to); False if it had ended, was abandoned already, or moved on meanwhile (then
    nothing is written)."""
    view = store_matches.view(match_id)
    if view.abandoned or view.state.ended or not view.state.created:
        return False
    try:
        store_matches.store.append(
            match_id,
            (MatchAbandoned(reason=reason, at=at, won_by=won_by),),
            expected_version=view.version,
            command_id=uuid.uuid5(match_id, "abandoned"),
            meta=meta,
        )
    except VersionConflict:
        return False
    return True


def _decide(view: MatchView, command: object) -> tuple:
    if view.abandoned:
        raise RuleViolation(
            "EKML §16(12)",
            f"the match was abandoned: {view.abandoned}",
            "type",
            code="match_abandoned",
        )
    if isinstance(command, CallPlayers):
        if view.state.ended:
            raise RuleViolation("EKML §16(12)", "the match has ended", "type", code="match_ended")
        return (PlayersCalled(table=view.table or 0, at=command.at),)
    if isinstance(command, CloseMatch):
        if view.state.ended:
            raise RuleViolation("EKML §16(12)", "the match has ended", "type", code="match_ended")
        return (MatchAbandoned(reason=CLOSED, note=command.note, at=command.at),)
    return decide(view.state, command)
