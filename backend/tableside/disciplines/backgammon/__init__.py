"""The backgammon rules engine under the KSI tournament rules: pure decide/evolve over a match.

    state = initial_state()
    events = decide(state, command)   # tuple of events, or RuleViolation(rule, message, field)
    state = fold(events, state)       # = reduce(evolve, events, state)

Commands (`commands.py`) are what the recorder reports: dice as facts, plays as checker moves.
Events (`events.py`) each cite `KSI x.y.z` in `rule`; what comes from the rules of play, which
the KSI text makes binding but does not contain, cites KSI 1.2.1. `board.legal_plays` is the
legal-play generator; `simulate.play_match` plays random legal matches; `mat` reads and writes
the Jellyfish .mat text GNU Backgammon imports; `timing` holds the time rules.
This package imports nothing of `tableside` outside itself.
"""

from tableside.disciplines.backgammon.commands import COMMAND_TYPES, decode_command
from tableside.disciplines.backgammon.engine import decide
from tableside.disciplines.backgammon.errors import RuleViolation
from tableside.disciplines.backgammon.events import EVENT_TYPES
from tableside.disciplines.backgammon.evolve import evolve, fold
from tableside.disciplines.backgammon.state import MatchState, initial_state

__all__ = [
    "COMMAND_TYPES",
    "EVENT_TYPES",
    "MatchState",
    "RuleViolation",
    "decide",
    "decode_command",
    "evolve",
    "fold",
    "initial_state",
]
