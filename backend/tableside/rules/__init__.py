"""The korona rules engine: pure decide/evolve over one match aggregate (EKML, NOVUS08, LV).

events = decide(state, command)          # raises RuleViolation(rule=..., message=..., field=...)
state = fold(events, state)              # or evolve(state, event) one at a time
"""

from tableside.rules.commands import COMMAND_TYPES, decode_command
from tableside.rules.engine import decide
from tableside.rules.errors import RuleViolation
from tableside.rules.events import ENTRY_TYPES, EVENT_TYPES
from tableside.rules.fold import evolve, fold
from tableside.rules.rulesets_variants import RULESETS
from tableside.rules.state import MatchState, initial_state

__all__ = [
    "COMMAND_TYPES",
    "ENTRY_TYPES",
    "EVENT_TYPES",
    "RULESETS",
    "MatchState",
    "RuleViolation",
    "decide",
    "decode_command",
    "evolve",
    "fold",
    "initial_state",
]
