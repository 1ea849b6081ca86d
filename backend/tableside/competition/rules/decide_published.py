"""A published event corrected (issue 54, point 9; decision 0191): an entry's name mended
after the results were published (a typo found at the prize-giving) makes a new edition of
the results; the earlier edition stays in the record, and every face and file marks it
superseded. Only a name: a result is corrected before publication (EKML §12(3)5)."""

from . import commands as cmd
from . import events as ev
from .decide_entrants import check_members, named
from .errors import CompetitionRuleError, require
from .state import Competition

RULE = "EKML §12(2)6"  # the head judge confirms the results; a correction is theirs too


def correct_published(state: Competition, c: cmd.CorrectPublished) -> tuple:
    """A name of the published results corrected, with who and why, as the next edition."""
    require(state.finished, RULE, "the results are not published yet", "not_published")
    entrant = state.entrants.get(c.entrant_id)
    if entrant is None:
        raise CompetitionRuleError(
            "EKML §8(1)",
            f"{c.entrant_id} is not on the entry list",
            code="not_on_entry_list",
            params={"entrant": c.entrant_id},
        )
    require(c.reason.strip() != "", RULE, "a correction says why", "correction_needs_reason")
    require(c.by.strip() != "", RULE, "a correction says who made it", "correction_needs_who")
    require(c.name.strip() != "", "EKML §8(2)", "an entry names its entrant", "entry_names_entrant")
    name, members, _ = named(state, c.entrant_id, c.name, c.members, None)
    check_members(state.the_guide, members, entrant.team)
    require(
        (name, members) != (entrant.name, entrant.members),
        RULE,
        "the correction changes nothing",
        "correction_changes_nothing",
    )
    edition = state.edition + 1
    return (
        ev.PublishedCorrected(
            edition, c.entrant_id, name, members, entrant.name, c.reason.strip(), c.by, c.at
        ),
    )
