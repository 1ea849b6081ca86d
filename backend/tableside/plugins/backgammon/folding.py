"""A backgammon match stream folded one stored event at a time (`Folded`: the engine's state
and the times of its first and latest events): what the live feed renders and the read model
writes, from the process's one fold cache (`BG_FOLD` on `eventlog/folder.py`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from tableside.disciplines.backgammon import EVENT_TYPES, evolve, initial_state
from tableside.disciplines.backgammon.state import MatchState
from tableside.eventlog.folder import StreamFold
from tableside.eventlog.source import Record


@dataclass(frozen=True)
class Folded:
    """A match's state with the times of its first and latest events."""

    state: MatchState
    started_at: datetime
    updated_at: datetime


def advance(folded: Folded | None, rec: Record) -> Folded:
    """One more backgammon event of a stream."""
    if folded is None:
        return Folded(evolve(initial_state(), rec.event), rec.recorded_at, rec.recorded_at)
    return Folded(evolve(folded.state, rec.event), folded.started_at, rec.recorded_at)


BG_FOLD = StreamFold(frozenset(EVENT_TYPES), advance)
