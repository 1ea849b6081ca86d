"""An entry list checked whole before anything is registered (issue 34): each line as its
registration would be decided, against the list as it would stand after the good lines above
it; every bad line named with its paragraph, nothing written."""

import msgspec

from tableside.rule_error import RuleError

from . import commands as cmd
from .decide import decide
from .evolve import evolve
from .state import Competition


class EntryVerdict(msgspec.Struct, frozen=True):
    """One line of the list: registrable, or the rule it breaks and why."""

    line: int
    ok: bool
    rule: str = ""
    detail: str = ""
    code: str = ""  # the refusal's code and figures: a face words it (codes.<lang>.json)
    params: dict[str, str] = {}


def check_entries(
    state: Competition, entries: tuple[cmd.RegisterEntrant, ...]
) -> tuple[EntryVerdict, ...]:
    """Every line decided in order; a good line counts for the lines after it (a name
    entered twice, an id taken), a bad one does not."""
    out = []
    for line, command in enumerate(entries, 1):
        try:
            events = decide(state, command)
        except RuleError as err:  # the competition's rules, a name's (tableside.names)
            out.append(EntryVerdict(line, False, err.rule, err.message, err.code, err.params))
            continue
        for event in events:
            state = evolve(state, event)
        out.append(EntryVerdict(line, True))
    return tuple(out)
