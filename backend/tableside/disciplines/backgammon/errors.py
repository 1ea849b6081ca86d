"""The one error the backgammon engine raises: a command the rules do not allow (the house's one
rule error, `tableside.rule_error.RuleError`). Every one names its `code`, worded in
`pwa/i18n/codes.<lang>.json` like every other refusal of the house (decision 0146)."""

from __future__ import annotations

from tableside.rule_error import RuleError


class RuleViolation(RuleError):
    """A refused command: `rule` cites the paragraph (`KSI x.y.z`), `field` the offending input,
    `code` and `params` its words in every language."""
