"""The one rule error of the house: a command some rules do not allow, citing the paragraph.

Every discipline's engine and the competition's rules raise a subclass of it, so whoever runs
a command catches one type and answers it with one problem (`web/problems.rule_violation`):
`rule` cites the paragraph, `message` says why in words, `field` names the offending input,
`code` names the refusal so every face says it in its own language (the words live in
`pwa/i18n/codes.<lang>.json` as `code.<code>`, with `{name}` placeholders `params` fill:
decision 0130). A bug is never one of these: only a ruling is (decision 0077). Like `settings`,
the ground: anyone may import it, the pure cores too.
"""

from __future__ import annotations

from collections.abc import Mapping


class RuleError(Exception):
    """A refused command: `rule` cites the paragraph, `message` says why."""

    def __init__(
        self,
        rule: str,
        message: str,
        field: str = "",
        code: str = "",
        params: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(f"{rule}: {message}" + (f" [{field}]" if field else ""))
        self.rule = rule
        self.message = message
        self.field = field
        self.code = code
        self.params = {k: str(v) for k, v in (params or {}).items()}
