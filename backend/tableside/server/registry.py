"""The one event registry of the service: every discipline's events, the venue's, the
competition's and the record's own (a dispute accepted, #41)."""

from __future__ import annotations

from tableside.competition import rules as competition
from tableside.eventlog import EventRegistry
from tableside.eventlog.standing import RECORD_EVENT_TYPES
from tableside.match.discipline import Disciplines
from tableside.match.events import VENUE_EVENT_TYPES
from tableside.server.disciplines import house_disciplines


def build_registry(disciplines: Disciplines | None = None) -> EventRegistry:
    """Every event type the store may hold, under its stable tag."""
    disciplines = disciplines or house_disciplines()
    return EventRegistry(
        *disciplines.event_types(),
        *VENUE_EVENT_TYPES,
        *competition.EVENT_TYPES,
        *RECORD_EVENT_TYPES,
    )
