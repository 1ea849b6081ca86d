"""The one error the backgammon engine raises: a command the rules do not allow."""

from __future__ import annotations

from tableside.disciplines.backgammon import refusals_is


class RuleViolation(Exception):
    """A refused command: `rule` cites the paragraph (`KSI x.y.z`), `field` the offending input."""

    def __init__(self, rule: str, message: str, field: str = "") -> None:
        super().__init__(f"{rule}: {message}" + (f" [{field}]" if field else ""))
        self.rule = rule
        self.message = message
        self.field = field

    def words(self, lang: str) -> str:
        """The refusal in the reader's language where its catalogue has it (refusals_is)."""
        return refusals_is.words(self.message, lang)
