"""The one error the backgammon engine raises: a command the rules do not allow (the house's one
rule error, `tableside.rule_error.RuleError`)."""

from __future__ import annotations

from tableside.disciplines.backgammon import refusals_is
from tableside.rule_error import RuleError


class RuleViolation(RuleError):
    """A refused command: `rule` cites the paragraph (`KSI x.y.z`), `field` the offending input."""

    def words(self, lang: str) -> str:
        """The refusal in the reader's language where its catalogue has it (refusals_is)."""
        return refusals_is.words(self.message, lang)
