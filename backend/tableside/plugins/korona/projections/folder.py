"""Korona's match views on the process's fold cache of streams (`eventlog/folder.py`): the live
hub's match renderer and the read models' runner share one `match_folder` per process."""

from __future__ import annotations

from tableside.disciplines.korona import EVENT_TYPES as RULES_EVENT_TYPES
from tableside.eventlog import EventRegistry
from tableside.eventlog.folder import MISS, Folder, StreamFold
from tableside.match.events import VENUE_EVENT_TYPES
from tableside.plugins.korona.folding import MatchView, advance

MATCH_FOLD = StreamFold(frozenset((*RULES_EVENT_TYPES, *VENUE_EVENT_TYPES)), advance)


def match_folder(registry: EventRegistry, size: int = 256, depth: int = 1) -> Folder[MatchView]:
    """A fold cache of match views (the process's one is made by the lifespan)."""
    return Folder(registry, MATCH_FOLD, size, depth)


__all__ = ["MATCH_FOLD", "MISS", "Folder", "match_folder"]
