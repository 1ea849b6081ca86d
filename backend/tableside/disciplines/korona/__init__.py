"""The korona rules engine: pure decide/evolve over one match aggregate (EKML, NOVUS08, LV).

    state = initial_state()
    events = decide(state, command)        # tuple of events, or RuleViolation(rule, message, field)
    state = fold(events, state)            # = reduce(evolve, events, state)
    state = apply(state, event, version)   # evolve with the stored version (streams with gaps)

Commands (`commands.py`, tagged by `type`) are what a judge reports; `decode_command(bytes)`
reads one from JSON. Events (`events.py`, `EVENT_TYPES`, tagged with their class name) are what
the rules decided, each consequence citing its paragraph in `rule`. Every command's batch starts
with one entry event (`ENTRY_TYPES`). `UndoLastEntry` and `CorrectDecision` add a
`CorrectionRecorded(corrects_version=…)` that evolve applies by re-folding the current game's
window without (or with a re-decided replacement for) that entry; refused once the next game has
started (EKML §12(3)5). `simulate.next_command(state, rng)` gives a legal next command;
`simulate.play_match(rng, ruleset, pairs, games)` yields a whole match's events.
"""

from tableside.disciplines.korona.commands import COMMAND_TYPES, decode_command
from tableside.disciplines.korona.engine import decide
from tableside.disciplines.korona.errors import RuleViolation
from tableside.disciplines.korona.events import ENTRY_TYPES, EVENT_TYPES
from tableside.disciplines.korona.fold import apply, evolve, fold
from tableside.disciplines.korona.rulesets_variants import RULESETS
from tableside.disciplines.korona.state import MatchState, initial_state

__all__ = [
    "COMMAND_TYPES",
    "ENTRY_TYPES",
    "EVENT_TYPES",
    "RULESETS",
    "MatchState",
    "RuleViolation",
    "apply",
    "decide",
    "decode_command",
    "evolve",
    "fold",
    "initial_state",
]
