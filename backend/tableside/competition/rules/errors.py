"""The rule error every competition decision raises, citing its paragraph (the house's one rule
error, `tableside.rule_error.RuleError`)."""

from tableside.rule_error import RuleError


class CompetitionRuleError(RuleError):
    """A command broke a competition rule; `rule` names the paragraph (e.g. `EKML §9(3)`)."""


def require(condition: bool, rule: str, message: str) -> None:
    """Raise a CompetitionRuleError citing `rule` unless `condition` holds."""
    if not condition:
        raise CompetitionRuleError(rule, message)
