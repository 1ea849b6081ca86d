"""Run a backgammon command against its stream: fold, decide, append once (sync, in a thread)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from uuid import UUID

from tableside.disciplines.backgammon import EVENT_TYPES, decide, evolve, initial_state
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon.events import EntryUndone, Event
from tableside.disciplines.backgammon.mat import import_mat
from tableside.disciplines.backgammon.state import MatchState, snapshot
from tableside.eventlog import AppendResult, EventStore, VersionConflict
from tableside.match.service import MatchNotFound

_TYPES = frozenset(EVENT_TYPES)


@dataclass(frozen=True)
class _Folded:
    state: MatchState
    version: int  # the stream's version (all its events)
    events: tuple[Event, ...]  # the backgammon events
    commands: Mapping[int, UUID]  # version -> command_id of each backgammon event


class BackgammonService:
    """Commands for backgammon match streams; a per-process cache of folded streams, caught up
    from the store before every use (the store decides, the cache only saves work)."""

    def __init__(self, store: EventStore, cache_size: int = 256) -> None:
        self.store = store
        self._cache: OrderedDict[UUID, _Folded] = OrderedDict()
        self._lock = threading.Lock()
        self._size = cache_size

    def history(self, match_id: UUID) -> tuple[MatchState, int, list[Event]]:
        """(state, stream version, backgammon events) of a match; MatchNotFound if none."""
        state, version, events, _ = self._read(match_id)
        return snapshot(state), version, events

    def at(self, match_id: UUID, version: int) -> tuple[MatchState, Event]:
        """The state after stream version `version` and the event stored there (for replay)."""
        state, last = initial_state(), None
        for stored in self.store.read(match_id):
            if stored.version > version:
                break
            if type(stored.event) in _TYPES:
                state, last = evolve(state, stored.event), stored
        if last is None or last.version != version or not state.created:
            raise MatchNotFound(f"{match_id} at version {version}")
        return snapshot(state), last.event

    def _read(self, match_id: UUID) -> tuple[MatchState, int, list[Event], dict[int, UUID]]:
        with self._lock:
            folded = self._cache.get(match_id) or _Folded(initial_state(), 0, (), {})
        state, version = folded.state, folded.version
        events, commands = list(folded.events), dict(folded.commands)
        for stored in self.store.read(match_id, after_version=version):
            version = stored.version
            if type(stored.event) in _TYPES:
                state = evolve(state, stored.event)
                events.append(stored.event)
                commands[stored.version] = stored.command_id
        if not state.created:
            raise MatchNotFound(str(match_id))
        with self._lock:
            self._cache[match_id] = _Folded(state, version, tuple(events), commands)
            self._cache.move_to_end(match_id)
            if len(self._cache) > self._size:
                self._cache.popitem(last=False)
        return state, version, events, commands

    def create(
        self,
        match_id: UUID,
        command: c.CreateMatch,
        *,
        command_id: UUID,
        meta: Mapping[str, str],
        digest: bytes | None = None,
    ) -> AppendResult:
        events = decide(initial_state(), command)
        return self.store.append(
            match_id,
            events,
            expected_version=0,
            command_id=command_id,
            meta=meta,
            command_digest=digest,
        )

    def import_mat(
        self,
        match_id: UUID,
        text: str,
        *,
        command_id: UUID,
        meta: Mapping[str, str],
        digest: bytes | None = None,
    ) -> AppendResult:
        """A .mat match recorded as one append: every event the engine decides for it."""
        state, events = initial_state(), []
        for command in import_mat(text, str(match_id)):
            batch = decide(state, command)
            for event in batch:
                state = evolve(state, event)
            events += batch
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
        command: c.Command,
        *,
        expected_version: int,
        command_id: UUID,
        meta: Mapping[str, str],
        digest: bytes | None = None,
    ) -> AppendResult:
        """Check the version, decide, append; VersionConflict / RuleViolation raise."""
        if isinstance(command, c.CreateMatch):
            raise MatchNotFound(f"{match_id}: a match is created by POST /api/backgammon/matches")
        state, version, events, commands = self._read(match_id)
        if version != expected_version:
            raise VersionConflict(match_id, expected_version, version)
        if isinstance(command, c.UndoLast) and command.to_version < 0:
            undone = {v for v, e in zip(commands, events, strict=True) if type(e) is EntryUndone}
            command = c.UndoLast(to_version=last_entry_start(state, commands, undone))
        events = decide(state, command)
        return self.store.append(
            match_id,
            events,
            expected_version=expected_version,
            command_id=command_id,
            meta=meta,
            command_digest=digest,
        )


def last_entry_start(state: MatchState, commands: dict[int, UUID], undone: set[int]) -> int:
    """The version before the last command still on the record (-1: none in this game)."""
    chain: list[int] = []
    s: MatchState | None = state
    while s is not None:
        if s.version not in undone:
            chain.append(s.version)
        s = s.prev
    last = commands.get(chain[0]) if chain else None
    return next((v for v in chain if commands.get(v) != last), -1)
