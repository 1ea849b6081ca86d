"""A backgammon competition's report to the federation (KSI 1.7.5, 5.6) as PDF."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID

import anyio.to_thread
from litestar import Response, get
from litestar.datastructures import State
from litestar.exceptions import NotFoundException
from litestar.params import FromPath

from tableside.competition.service import CompetitionNotFound
from tableside.match.http.export_routes import pdf_attachment
from tableside.plugins.backgammon.exports.bg_report import federation_report_pdf
from tableside.plugins.backgammon.federation_report import NotBackgammon, report_sheets
from tableside.web.context import context
from tableside.web.downloads import BackgammonLanguage
from tableside.web.guards import signed_in
from tableside.web.problems import coded


@get(
    "/api/competitions/{competition_id:uuid}/federation-report.pdf",
    summary="The TD's report to the federation (KSI 1.7.5, 5.6) as PDF",
    guards=[signed_in("head_judge", "secretary", "auditor")],
)
async def get_federation_report(
    state: State, competition_id: FromPath[UUID], lang: BackgammonLanguage = "is"
) -> Response[bytes]:
    """Every expulsion with its reasons, and every ruling, appeal and jury decision with the
    incident and the reasoning, match by match, from the matches' records (a backgammon
    competition's; 404 for another)."""
    ctx = context(state)
    try:
        _, comp = await anyio.to_thread.run_sync(state.competitions.service.state, competition_id)
        async with ctx.pool.acquire() as conn:
            sheets = await report_sheets(conn, ctx.registry, competition_id, comp)
    except CompetitionNotFound:
        raise NotFoundException(
            f"No competition {competition_id}", extra=coded("no_competition")
        ) from None
    except NotBackgammon:
        raise NotFoundException(
            "No federation report: not a backgammon (KSI) competition",
            extra=coded("not_backgammon"),
        ) from None
    made = max((s.last_at for s in sheets), default=datetime.now(UTC))
    name = f"report-{competition_id}-{lang}.pdf"
    return await pdf_attachment(name, federation_report_pdf, comp.guide.name, sheets, lang, made)


FEDERATION_ROUTES = [get_federation_report]
