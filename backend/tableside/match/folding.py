"""Fold one match stream (rules + venue events) into a MatchView, one stored event at a time."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from uuid import UUID

from tableside.disciplines.korona import EVENT_TYPES as RULES_EVENT_TYPES
from tableside.disciplines.korona import events as ev
from tableside.disciplines.korona.fold import apply, entry_span
from tableside.disciplines.korona.state import MatchState, initial_state
from tableside.match.events import MatchAbandoned, MatchScheduled, PlayersCalled

_RULES = frozenset(RULES_EVENT_TYPES)
_INITIAL = initial_state()  # immutable, so one shared value is safe


@dataclass(frozen=True, slots=True)
class Record:
    """A decoded stored event: what folding and the live feed need of a row."""

    stream_id: UUID
    version: int
    position: int
    type: str
    event: object
    recorded_at: datetime


@dataclass(frozen=True, slots=True)
class MatchView:
    """A match after some stored version: the engine's state plus what the venue knows."""

    match_id: UUID
    version: int = 0
    position: int = 0
    state: MatchState = _INITIAL
    table: int | None = None
    competition_id: str = ""
    called: bool = False
    scheduled_position: int = 0  # when it was put on its table: the newest match owns a table
    effective: tuple[tuple[int, object], ...] = ()  # rules entries after corrections
    updated_at: datetime | None = None
    abandoned: str = ""  # the reason, once the match was given up unfinished


def is_match_event(event: object) -> bool:
    """True for events that belong to a match stream (not a competition's)."""
    return type(event) in _RULES or isinstance(
        event, (MatchScheduled, PlayersCalled, MatchAbandoned)
    )


def advance(view: MatchView | None, rec: Record) -> MatchView:
    """The view after one more stored event of its stream (versions must follow on)."""
    view = view or MatchView(match_id=rec.stream_id)
    if rec.version != view.version + 1:
        raise ValueError(f"stream {rec.stream_id}: version {rec.version} after {view.version}")
    view = replace(view, version=rec.version, position=rec.position, updated_at=rec.recorded_at)
    event = rec.event
    if isinstance(event, MatchScheduled):
        return replace(
            view,
            table=event.table,
            competition_id=event.competition_id,
            scheduled_position=rec.position,
        )
    if isinstance(event, PlayersCalled):
        return replace(view, called=True)
    if isinstance(event, MatchAbandoned):
        return replace(view, abandoned=event.reason or "abandoned")
    if type(event) not in _RULES:
        return view
    state = apply(view.state, event, rec.version)
    return replace(view, state=state, effective=_effective(view.effective, rec.version, event))


def fold_records(records: list[Record]) -> MatchView | None:
    """A whole stream folded from version 1."""
    view = None
    for rec in records:
        view = advance(view, rec)
    return view


def _effective(entries: tuple, version: int, event: object) -> tuple:
    """The entry list as the engine sees it: a correction replaces the entry it corrects."""
    if type(event) is ev.CorrectionRecorded:
        span = entry_span(entries, event.corrects_version)
        if span is not None:
            start, end = span
            replaced = tuple((event.corrects_version, e) for e in event.replacement)
            entries = (*entries[:start], *replaced, *entries[end:])
    return (*entries, (version, event))
