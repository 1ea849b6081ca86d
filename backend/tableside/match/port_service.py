"""Matches of any registered discipline through its port alone: fold, decide, append once (sync,
in a worker thread), on the one stream service. What a discipline with no slice of its own
(`plugins/<name>/`) is recorded with; korona and backgammon answer here too.

A stream is a discipline's when its events are: the fold of another discipline's stream (or a
competition's) holds no match, so a command to it is MatchNotFound, never a write.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from tableside.eventlog import AppendResult, EventStore, VersionConflict
from tableside.eventlog.streams import Folded, Streams
from tableside.match.discipline import Discipline, Disciplines
from tableside.match.errors import MatchNotFound


@dataclass(frozen=True)
class Played:
    """A stream folded by its discipline: the state and the last of its events (with the
    stream version it was stored at)."""

    state: Any
    event: Any = None
    version: int = 0


def _fold(discipline: Discipline):
    types = frozenset(discipline.event_types)

    def fold(played: Played | None, rec) -> Played:
        played = played or Played(discipline.initial_state())
        if type(rec.event) not in types:
            return played
        return Played(
            discipline.evolve(played.state, rec.event, rec.version), rec.event, rec.version
        )

    return fold


class PortMatches:
    """Commands and views for every registered discipline's match streams (a cached fold per
    discipline and process)."""

    def __init__(self, store: EventStore, disciplines: Disciplines, cache_size: int = 256) -> None:
        self.store, self.disciplines = store, disciplines
        self._streams = {
            d.name: Streams(store, _fold(d), cache_size=cache_size) for d in disciplines
        }

    def current(self, name: str, match_id: UUID) -> tuple[Any, int]:
        """(state, stream version) of a match of discipline `name`; MatchNotFound if none."""
        folded = self._read(name, match_id)
        return folded.value.state, folded.version

    def at(self, name: str, match_id: UUID, version: int) -> Played:
        """The match after stream version `version`, that being one of its events (replay)."""
        discipline, fold = self.disciplines.named(name), _fold(self.disciplines.named(name))
        played = None
        for stored in self.store.read(match_id):
            if stored.version > version:
                break
            played = fold(played, stored)
        if played is None or played.version != version or not discipline.created(played.state):
            raise MatchNotFound(f"{match_id} at version {version}")
        return played

    def create(
        self,
        name: str,
        match_id: UUID,
        command: Any,
        *,
        command_id: UUID,
        meta: Mapping[str, str],
        digest: bytes | None = None,
    ) -> AppendResult:
        """What the discipline decides for `command` on a new stream, appended at version 0."""
        discipline = self.disciplines.named(name)
        events = discipline.decide(discipline.initial_state(), command)
        return self._streams[name].append(
            match_id, events, base=Folded(0, None), command_id=command_id, meta=meta, digest=digest
        )

    def execute(
        self,
        name: str,
        match_id: UUID,
        command: Any,
        *,
        expected_version: int,
        command_id: UUID,
        meta: Mapping[str, str],
        digest: bytes | None = None,
    ) -> AppendResult:
        """Check the version, decide, append; VersionConflict / RuleError raise."""
        base = self._read(name, match_id, at_least=expected_version)
        if base.version != expected_version:
            raise VersionConflict(match_id, expected_version, base.version)
        events = self.disciplines.named(name).decide(base.value.state, command)
        return self._streams[name].append(
            match_id, events, base=base, command_id=command_id, meta=meta, digest=digest
        )

    def _read(self, name: str, match_id: UUID, at_least: int | None = None) -> Folded[Played]:
        discipline = self.disciplines.named(name)
        streams = self._streams[name]
        base = (
            streams.current(match_id) if at_least is None else streams.at_least(match_id, at_least)
        )
        if base.value is None or not discipline.created(base.value.state):
            raise MatchNotFound(str(match_id))
        return base
