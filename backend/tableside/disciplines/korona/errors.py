"""The one error the engine raises: a command the rules do not allow, citing the paragraph."""

from __future__ import annotations


class RuleViolation(Exception):
    """A refused command: `rule` cites the paragraph, `field` names the offending input, `code`
    (where given) names the refusal so a face can say it in its own language."""

    def __init__(self, rule: str, message: str, field: str = "", code: str = "") -> None:
        super().__init__(f"{rule}: {message}" + (f" [{field}]" if field else ""))
        self.rule = rule
        self.message = message
        self.field = field
        self.code = code
