"""Run a command against a competition stream: fold, decide, append once (sync, in a thread).

A competition's matches are match streams of their own: every MatchCalled the competition
records is followed by creating that match on its table (by the processor, through the
flow of the guide's sport: `flows.py`).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import TypeVar
from uuid import UUID

import msgspec

from tableside.competition import rules as competition
from tableside.competition.rules import commands as cc
from tableside.competition.rules.errors import CompetitionRuleError
from tableside.competition.rules.events import PublishedCorrected
from tableside.competition.rules.state import Competition
from tableside.eventlog import AppendResult, EventStore, VersionConflict
from tableside.eventlog.streams import Folded, Streams

C = TypeVar("C", bound=msgspec.Struct)
COMPETITION_IDS = uuid.UUID("0f4b9b52-52f4-4d3c-a8f1-3f0d6f7c2a11")  # uuid5 namespace
_EVENTS = frozenset(competition.EVENT_TYPES)


class CompetitionNotFound(LookupError):
    """No competition stream with this id."""


class NothingToCall(Exception):
    """Call-next found no waiting match it could put on an offered table: not a broken rule,
    a click that had nothing to do."""


def now() -> str:
    """The server's clock as the domain wants it (ISO-8601, UTC, seconds)."""
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def stamped(command: C) -> C:
    """The command with the server's time in `at` (the 2-minute rule runs on one clock)."""
    if "at" in command.__struct_fields__:
        return msgspec.structs.replace(command, at=now())
    return command


class CompetitionService:
    """Commands for competition streams; caches folded states per stream."""

    def __init__(self, store: EventStore, cache_size: int = 64) -> None:
        self.store = store
        self.streams: Streams[Competition] = Streams(store, _fold, cache_size=cache_size)

    def state(self, comp_id: UUID) -> tuple[int, Competition]:
        """(version, state) of a competition, caught up from the store."""
        return _state(self.streams.current(comp_id), comp_id)

    def edition(self, comp_id: UUID, edition: int) -> Competition:
        """The published results as edition `edition` had them: the stream folded up to the
        correction that superseded it (the record keeps every edition; decision 0191)."""
        state = None
        for rec in self.store.read(comp_id):
            if type(rec.event) is PublishedCorrected and rec.event.edition > edition:
                break
            state = _fold(state, rec)
        return _known(state, comp_id)

    def create(
        self,
        comp_id: UUID,
        command: cc.CreateCompetition,
        *,
        command_id: UUID,
        meta: Mapping[str, str],
        digest: bytes | None = None,
    ) -> AppendResult:
        """CompetitionCreated at version 0."""
        events = decide(Competition(), command)
        return self.streams.append(
            comp_id, events, base=Folded(0, None), command_id=command_id, meta=meta, digest=digest
        )

    def execute(
        self,
        comp_id: UUID,
        command: object,
        *,
        expected_version: int,
        command_id: UUID,
        meta: Mapping[str, str],
        digest: bytes | None = None,
    ) -> AppendResult:
        """Check the version, decide, append; VersionConflict / CompetitionRuleError raise."""
        base = self.streams.at_least(comp_id, expected_version)
        version, state = _state(base, comp_id)
        if version != expected_version:
            raise VersionConflict(comp_id, expected_version, version)
        events = decide(state, command)
        if not events and isinstance(command, cc.CallNextMatches):
            raise NothingToCall(
                "No waiting match can be called now: every waiting match has a player at a "
                "table, or no table is free. Call again when a match ends."
            )
        if not events:
            raise CompetitionRuleError("EKML §17(3)", "nothing to do", code="nothing_to_do")
        return self.streams.append(
            comp_id, events, base=base, command_id=command_id, meta=meta, digest=digest
        )

    def submit(
        self, comp_id: UUID, make, *, command_id: UUID, meta: Mapping[str, str], attempts: int = 5
    ) -> AppendResult | None:
        """Decide `make(state)` at the current version, retrying on a conflict (processors)."""

        def events(state: Competition | None):
            known = _known(state, comp_id)
            command = make(known)
            return None if command is None else decide(known, command)

        return self.streams.submit(
            comp_id, events, command_id=command_id, meta=meta, attempts=attempts
        )


def _fold(state: Competition | None, rec) -> Competition:
    """One more stored event of a competition stream (any other event: not a competition)."""
    if type(rec.event) not in _EVENTS:
        raise CompetitionNotFound(str(rec.stream_id))
    return competition.evolve(state or Competition(), rec.event)


def _known(state: Competition | None, comp_id: UUID) -> Competition:
    if state is None:
        raise CompetitionNotFound(str(comp_id))
    return state


def _state(folded: Folded[Competition], comp_id: UUID) -> tuple[int, Competition]:
    return folded.version, _known(folded.value, comp_id)


def decide(state: Competition, command: object) -> tuple:
    """The domain's decision; its rule errors (`CompetitionRuleError`, the house's one
    `RuleError`) cite their paragraph and are answered as every rule error is.

    Anything else it raises is a bug, not a ruling: it goes on up to the one 500 handler
    (`web/problems.py`, one logged line). A guide the domain cannot work with is refused
    explicitly when it is set (`rules/guide_checks.py`), never by catching a crash (#29).
    """
    return competition.decide(state, command)
