"""The one error the engine raises: a command the rules do not allow, citing the paragraph (the
house's one rule error, `tableside.rule_error.RuleError`, with korona's refusal codes)."""

from __future__ import annotations

from tableside.rule_error import RuleError


class RuleViolation(RuleError):
    """A refused command: `rule` cites the paragraph, `field` names the offending input, `code`
    (where given) names the refusal so a face can say it in its own language."""
