"""The rule error every competition decision raises, citing its paragraph."""


class CompetitionRuleError(Exception):
    """A command broke a competition rule; `rule` names the paragraph (e.g. `EKML §9(3)`)."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message


def require(condition: bool, rule: str, message: str) -> None:
    """Raise a CompetitionRuleError citing `rule` unless `condition` holds."""
    if not condition:
        raise CompetitionRuleError(rule, message)
