"""The match slice's refusals as problem details: no such match, no such discipline (a rule
error of any discipline is the kernel's, `web/problems.py`). `server/` adds these to the
kernel's handlers."""

from __future__ import annotations

from typing import Any

from litestar import Request, Response

from tableside.match.discipline import UnknownDiscipline
from tableside.match.errors import MatchNotFound
from tableside.web.problems import problem, title_in, words_in


def _not_found(request: Request, exc: MatchNotFound) -> Response:
    title = title_in(request, "No such match")
    detail = words_in(request, "no_match", f"match {exc} does not exist")
    return problem(404, title, detail, code="no_match")


def _no_discipline(request: Request, exc: UnknownDiscipline) -> Response:
    title = title_in(request, "No such discipline")
    return problem(404, title, f"no discipline {exc} is registered here")


MATCH_HANDLERS: dict[type[Exception], Any] = {
    MatchNotFound: _not_found,
    UnknownDiscipline: _no_discipline,
}
