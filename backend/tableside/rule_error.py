"""The one rule error of the house: a command some rules do not allow, citing the paragraph.

Every discipline's engine and the competition's rules raise a subclass of it, so whoever runs
a command catches one type and answers it with one problem (`web/problems.rule_violation`):
`rule` cites the paragraph, `message` says why in words, `field` names the offending input,
`code` (where given) names the refusal so a face can say it in its own language. A bug is
never one of these: only a ruling is (decision 0077). Like `settings`, the ground: anyone may
import it, the pure cores too.
"""

from __future__ import annotations


class RuleError(Exception):
    """A refused command: `rule` cites the paragraph, `message` says why."""

    def __init__(self, rule: str, message: str, field: str = "", code: str = "") -> None:
        super().__init__(f"{rule}: {message}" + (f" [{field}]" if field else ""))
        self.rule = rule
        self.message = message
        self.field = field
        self.code = code
