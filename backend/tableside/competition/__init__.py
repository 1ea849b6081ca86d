"""Competitions, event-sourced and pure: the guide, entrants, draws, results, standings.

The service calls `decide(state, command)` and `evolve(state, event)` (or `fold(events)`),
feeds the same events to `standings.fold`, and reads `final_placings` and bracket views.
"""

from .commands import COMMAND_TYPES
from .decide import decide
from .errors import CompetitionRuleError
from .events import EVENT_TYPES
from .evolve import evolve, fold
from .placings import final_placings
from .standings import StandingsView, standings
from .state import Competition

__all__ = [
    "COMMAND_TYPES",
    "EVENT_TYPES",
    "Competition",
    "CompetitionRuleError",
    "StandingsView",
    "decide",
    "evolve",
    "final_placings",
    "fold",
    "standings",
]
