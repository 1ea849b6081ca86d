"""The rule error every competition decision raises, citing its paragraph (the house's one rule
error, `tableside.rule_error.RuleError`)."""

from tableside.rule_error import RuleError


class CompetitionRuleError(RuleError):
    """A command broke a competition rule; `rule` names the paragraph (e.g. `EKML §9(3)`)."""


def require(condition: bool, rule: str, message: str, code: str, **params: object) -> None:
    """Raise a CompetitionRuleError citing `rule` unless `condition` holds: `message` in
    English, `code` names it for the faces' words (`code.<code>`), `params` its figures."""
    if not condition:
        raise CompetitionRuleError(rule, message, code=code, params=params)
