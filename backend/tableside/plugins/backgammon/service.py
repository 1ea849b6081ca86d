"""Run a backgammon command against its stream: fold, decide, append once (sync, in a thread)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from uuid import UUID

from tableside.disciplines.backgammon import EVENT_TYPES, decide, evolve, initial_state
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon.events import EntryUndone, Event
from tableside.disciplines.backgammon.mat import import_mat
from tableside.disciplines.backgammon.state import MatchState, snapshot
from tableside.eventlog import AppendResult, EventStore, VersionConflict
from tableside.eventlog.streams import Folded, Streams
from tableside.match.errors import MatchNotFound

_TYPES = frozenset(EVENT_TYPES)


@dataclass(frozen=True)
class _Folded:
    state: MatchState
    events: tuple[Event, ...]  # the backgammon events
    commands: Mapping[int, UUID]  # version -> command_id of each backgammon event


def _fold(folded: _Folded | None, rec) -> _Folded:
    """One more stored event of a backgammon stream (other events leave it as it is)."""
    folded = folded or _Folded(initial_state(), (), {})
    if type(rec.event) not in _TYPES:
        return folded
    commands = {**folded.commands, rec.version: rec.command_id}
    return _Folded(evolve(folded.state, rec.event), (*folded.events, rec.event), commands)


class BackgammonService:
    """Commands for backgammon match streams, on the one stream service (a per-process
    cached fold; the store decides, the cache only saves work)."""

    def __init__(self, store: EventStore, cache_size: int = 256) -> None:
        self.store = store
        self.streams: Streams[_Folded] = Streams(store, _fold, cache_size=cache_size)

    def history(self, match_id: UUID) -> tuple[MatchState, int, list[Event]]:
        """(state, stream version, backgammon events) of a match; MatchNotFound if none."""
        base = self._read(match_id)
        return snapshot(base.value.state), base.version, list(base.value.events)

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

    def _read(self, match_id: UUID, at_least: int | None = None) -> Folded[_Folded]:
        """The stream's fold (cached when not behind `at_least`); MatchNotFound if none."""
        if at_least is None:
            base = self.streams.current(match_id)
        else:
            base = self.streams.at_least(match_id, at_least)
        if base.value is None or not base.value.state.created:
            raise MatchNotFound(str(match_id))
        return base

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
        return self.streams.append(
            match_id, events, base=Folded(0, None), command_id=command_id, meta=meta, digest=digest
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
        return self.streams.append(
            match_id, events, base=Folded(0, None), command_id=command_id, meta=meta, digest=digest
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
        authorize: Callable[[MatchState], None] | None = None,
        undo_check: Callable[[list[Event]], None] | None = None,
    ) -> AppendResult:
        """Check the version and who asks (`authorize` on the current state, `undo_check` on
        what an undo would take off the record), decide, append; VersionConflict /
        RuleViolation / the checks' refusals raise."""
        if isinstance(command, c.CreateMatch):
            raise MatchNotFound(f"{match_id}: a match is created by POST /api/backgammon/matches")
        base = self._read(match_id, at_least=expected_version)
        if authorize is not None:
            authorize(base.value.state)
        if base.version != expected_version:
            raise VersionConflict(match_id, expected_version, base.version)
        state, commands = base.value.state, base.value.commands
        if isinstance(command, c.UndoLast) and command.to_version < 0:
            pairs = zip(commands, base.value.events, strict=True)
            undone = {v for v, e in pairs if type(e) is EntryUndone}
            command = c.UndoLast(to_version=last_entry_start(state, commands, undone))
        if isinstance(command, c.UndoLast) and undo_check is not None:
            pairs = zip(commands, base.value.events, strict=True)
            undo_check([e for v, e in pairs if v > command.to_version])
        events = decide(state, command)
        return self.streams.append(
            match_id, events, base=base, command_id=command_id, meta=meta, digest=digest
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
