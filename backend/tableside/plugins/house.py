"""The house's disciplines, their sports and the one event registry, one line each (decisions
0076, 0149, 0173): what every composition root reads — the venue's (`server/`) and the
federation's (`federation/`, which folds the venues' kept events exactly as a venue does).
The only module of `plugins/` that names both slices; neither slice imports it.
"""

from __future__ import annotations

from tableside.competition import rules as competition
from tableside.competition.rules import sports
from tableside.eventlog import EventRegistry
from tableside.eventlog.standing import RECORD_EVENT_TYPES
from tableside.match.discipline import Disciplines
from tableside.match.events import VENUE_EVENT_TYPES
from tableside.plugins.backgammon import competition_rules as backgammon_competition
from tableside.plugins.backgammon.discipline import BACKGAMMON
from tableside.plugins.korona import competition_rules as korona_competition
from tableside.plugins.korona.discipline import KORONA

# What each discipline says about a competition (decision 0149), known from this module's
# import on: every path that records or folds (the app, the registry, the CLI's rebuilds, the
# federation's archive) imports it. Korona's first: a guide naming no sport is korona's.
sports.register(korona_competition.SPORT, backgammon_competition.SPORT)


def house_disciplines() -> Disciplines:
    """Every discipline this house records."""
    return Disciplines((KORONA, BACKGAMMON))


def build_registry(disciplines: Disciplines | None = None) -> EventRegistry:
    """Every event type the store may hold, under its stable tag."""
    disciplines = disciplines or house_disciplines()
    return EventRegistry(
        *disciplines.event_types(),
        *VENUE_EVENT_TYPES,
        *competition.EVENT_TYPES,
        *RECORD_EVENT_TYPES,
    )
