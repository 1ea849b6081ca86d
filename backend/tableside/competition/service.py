"""Run a command against a competition stream: fold, decide, append once (sync, in a thread).

A competition's matches are match streams of their own: every MatchCalled the competition
records is followed by creating that match on its table (`matchflow.start_match`).
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Mapping
from datetime import UTC, datetime
from uuid import UUID

import msgspec

from tableside.competition import rules as competition
from tableside.competition.rules import commands as cc
from tableside.competition.rules.errors import CompetitionRuleError
from tableside.competition.rules.state import Competition
from tableside.disciplines.korona.errors import RuleViolation
from tableside.eventlog import AppendResult, EventStore, VersionConflict

COMPETITION_IDS = uuid.UUID("0f4b9b52-52f4-4d3c-a8f1-3f0d6f7c2a11")  # uuid5 namespace
_EVENTS = frozenset(competition.EVENT_TYPES)


class CompetitionNotFound(LookupError):
    """No competition stream with this id."""


def now() -> str:
    """The server's clock as the domain wants it (ISO-8601, UTC, seconds)."""
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def stamped(command: msgspec.Struct) -> msgspec.Struct:
    """The command with the server's time in `at` (the 2-minute rule runs on one clock)."""
    if "at" in command.__struct_fields__:
        return msgspec.structs.replace(command, at=now())
    return command


class CompetitionService:
    """Commands for competition streams; caches folded states per stream."""

    def __init__(self, store: EventStore, cache_size: int = 64) -> None:
        self.store = store
        self._states: dict[UUID, tuple[int, Competition]] = {}
        self._lock = threading.Lock()
        self._cache_size = cache_size

    def state(self, comp_id: UUID) -> tuple[int, Competition]:
        """(version, state) of a competition, caught up from the store."""
        with self._lock:
            version, state = self._states.get(comp_id, (0, Competition()))
        for stored in self.store.read(comp_id, after_version=version):
            if type(stored.event) not in _EVENTS:
                raise CompetitionNotFound(str(comp_id))
            version, state = stored.version, competition.evolve(state, stored.event)
        if version == 0:
            raise CompetitionNotFound(str(comp_id))
        with self._lock:
            if len(self._states) >= self._cache_size and comp_id not in self._states:
                self._states.pop(next(iter(self._states)))
            self._states[comp_id] = (version, state)
        return version, state

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
        return self.store.append(
            comp_id,
            events,
            expected_version=0,
            command_id=command_id,
            meta=meta,
            command_digest=digest,
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
        """Check the version, decide, append; VersionConflict / RuleViolation raise."""
        version, state = self.state(comp_id)
        if version != expected_version:
            raise VersionConflict(comp_id, expected_version, version)
        events = decide(state, command)
        if not events:
            raise RuleViolation("EKML §17(3)", "nothing to do (no waiting match or free table)")
        return self.store.append(
            comp_id,
            events,
            expected_version=version,
            command_id=command_id,
            meta=meta,
            command_digest=digest,
        )

    def submit(
        self, comp_id: UUID, make, *, command_id: UUID, meta: Mapping[str, str], attempts: int = 5
    ) -> AppendResult | None:
        """Decide `make(state)` at the current version, retrying on a conflict (processors)."""
        for _ in range(attempts):
            version, state = self.state(comp_id)
            command = make(state)
            if command is None:
                return None
            try:
                return self.store.append(
                    comp_id,
                    decide(state, command),
                    expected_version=version,
                    command_id=command_id,
                    meta=meta,
                )
            except VersionConflict:
                continue
        raise VersionConflict(comp_id, version, self.store.current_version(comp_id))


def decide(state: Competition, command: object) -> tuple:
    """The domain's decision; its rule errors (and nonsense settings) become RuleViolations."""
    try:
        return competition.decide(state, command)
    except CompetitionRuleError as exc:
        raise RuleViolation(exc.rule, exc.message) from None
    except (ValueError, ArithmeticError, LookupError, TypeError) as exc:
        # A guide the domain cannot work with (e.g. 0 games); refused, never a server error.
        raise RuleViolation("EKML §3(4)", f"cannot apply: {exc}") from None
