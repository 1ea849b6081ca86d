"""A backgammon competition's report to the federation (KSI 1.7.5, 5.6) as PDF."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID

import anyio.to_thread
from litestar import Request, Response, get
from litestar.datastructures import State
from litestar.exceptions import NotFoundException
from litestar.params import FromPath

from tableside.competition.rules.state import Competition
from tableside.competition.service import CompetitionNotFound
from tableside.match.http.export_routes import pdf_attachment
from tableside.plugins.backgammon.exports.bg_report import federation_report_pdf
from tableside.plugins.backgammon.exports.bg_words import bg_words
from tableside.plugins.backgammon.federation_report import (
    NotBackgammon,
    dispute_doc,
    report_sheets,
)
from tableside.web.context import context
from tableside.web.downloads import FaceLanguage
from tableside.web.guards import signed_in
from tableside.web.problems import coded


async def _sheets(state: State, competition_id: UUID, what: str) -> tuple[Competition, list]:
    """The competition and each called match's protocol sheet; 404 when there is no such
    competition or it is not a backgammon (KSI) one (`what` names what is then missing)."""
    ctx = context(state)
    try:
        _, comp = await anyio.to_thread.run_sync(state.competitions.service.state, competition_id)
        async with ctx.pool.acquire() as conn:
            return comp, await report_sheets(conn, ctx.registry, competition_id, comp)
    except CompetitionNotFound:
        raise NotFoundException(
            f"No competition {competition_id}", extra=coded("no_competition")
        ) from None
    except NotBackgammon:
        raise NotFoundException(
            f"{what}: not a backgammon (KSI) competition", extra=coded("not_backgammon")
        ) from None


@get(
    "/api/competitions/{competition_id:uuid}/federation-report.pdf",
    summary="The TD's report to the federation (KSI 1.7.5, 5.6) as PDF",
    guards=[signed_in("head_judge", "secretary", "auditor")],
)
async def get_federation_report(
    request: Request, state: State, competition_id: FromPath[UUID], lang: FaceLanguage = "is"
) -> Response[bytes]:
    """Every expulsion with its reasons, and every ruling, appeal and jury decision with the
    incident and the reasoning, match by match, from the matches' records (a backgammon
    competition's; 404 for another)."""
    comp, sheets = await _sheets(state, competition_id, "No federation report")
    made = max((s.last_at for s in sheets), default=datetime.now(UTC))
    name = f"report-{competition_id}-{lang}.pdf"
    return await pdf_attachment(
        request, name, federation_report_pdf, comp.guide.name, sheets, lang, made
    )


@get(
    "/api/competitions/{competition_id:uuid}/disputes",
    summary="A backgammon competition's disputes (KSI 5), for the TD's console",
    guards=[signed_in("head_judge", "secretary", "auditor")],
)
async def get_disputes(
    state: State, competition_id: FromPath[UUID], lang: FaceLanguage = "is"
) -> list[dict]:
    """Every match with a call, ruling, appeal or jury decision: each entry in words (`lang`)
    with its KSI paragraph, the jury named in its decision, and where the dispute stands
    (called, ruled, appealed, final). 404 for a competition under another rulebook."""
    _, sheets = await _sheets(state, competition_id, "No KSI disputes")
    words = bg_words(lang)
    return [dispute_doc(sheet, words) for sheet in sheets if sheet.officials]


FEDERATION_ROUTES = [get_federation_report, get_disputes]
