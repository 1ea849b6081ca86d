"""The match slice's refusals as problem details: no such match, no such discipline (a rule
error of any discipline is the kernel's, `web/problems.py`). `server/` adds these to the
kernel's handlers."""

from __future__ import annotations

from typing import Any

from litestar import Request, Response

from tableside.match.discipline import UnknownDiscipline
from tableside.match.errors import MatchNotFound
from tableside.web.problems import problem


def _not_found(_: Request, exc: MatchNotFound) -> Response:
    return problem(404, "No such match", f"match {exc} does not exist")


def _no_discipline(_: Request, exc: UnknownDiscipline) -> Response:
    return problem(404, "No such discipline", f"no discipline {exc} is registered here")


MATCH_HANDLERS: dict[type[Exception], Any] = {
    MatchNotFound: _not_found,
    UnknownDiscipline: _no_discipline,
}
