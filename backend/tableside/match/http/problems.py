"""The match slice's refusals as problem details: rule violations of either discipline, no such
match. `server/` adds these to the kernel's handlers (`web/problems.py`)."""

from __future__ import annotations

from typing import Any

from litestar import Request, Response

from tableside.disciplines.backgammon import RuleViolation as BackgammonRuleViolation
from tableside.disciplines.korona.errors import RuleViolation
from tableside.match.errors import MatchNotFound
from tableside.web.problems import problem, rule_violation


def _not_found(_: Request, exc: MatchNotFound) -> Response:
    return problem(404, "No such match", f"match {exc} does not exist")


MATCH_HANDLERS: dict[type[Exception], Any] = {
    RuleViolation: rule_violation,
    BackgammonRuleViolation: rule_violation,
    MatchNotFound: _not_found,
}
