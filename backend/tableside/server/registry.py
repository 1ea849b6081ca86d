"""The one event registry of the service: rules, venue, competition and backgammon events."""

from __future__ import annotations

from tableside.competition import rules as competition
from tableside.disciplines import backgammon
from tableside.disciplines import korona as rules
from tableside.eventlog import EventRegistry
from tableside.match.events import VENUE_EVENT_TYPES


def build_registry() -> EventRegistry:
    """Every event type the store may hold, under its stable tag."""
    return EventRegistry(
        *rules.EVENT_TYPES,
        *VENUE_EVENT_TYPES,
        *competition.EVENT_TYPES,
        *backgammon.EVENT_TYPES,
    )
