"""Competitions, event-sourced and pure: the guide, entrants, draws, results, standings.

The service calls `decide(state, command)` and `evolve(state, event)` (or `fold(events)`),
feeds the same events to `standings_fold`, and reads `standings`, `final_placings`,
`bracket_slots` and `open_matches`; `assign_tables` proposes calls for the console.
"""

from .commands import COMMAND_TYPES
from .decide import decide
from .errors import CompetitionRuleError
from .events import EVENT_TYPES
from .evolve import evolve, fold
from .matches import all_slots as bracket_slots
from .matches import open_matches
from .placings import final_placings
from .standings import StandingsView, bracket, standings
from .standings import fold as standings_fold
from .state import Competition
from .tables import assign_tables

__all__ = [
    "COMMAND_TYPES",
    "EVENT_TYPES",
    "Competition",
    "CompetitionRuleError",
    "StandingsView",
    "assign_tables",
    "bracket",
    "bracket_slots",
    "decide",
    "evolve",
    "final_placings",
    "fold",
    "open_matches",
    "standings",
    "standings_fold",
]
