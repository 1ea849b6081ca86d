"""Korona's protocol as PDF (public)."""

from __future__ import annotations

from uuid import UUID

from litestar import Request, Response, get
from litestar.datastructures import State
from litestar.exceptions import NotFoundException
from litestar.params import FromPath

from tableside.disciplines.korona.events import MatchCreated
from tableside.eventlog.source import event_hash, read_stream
from tableside.match.http.export_routes import pdf_attachment
from tableside.match.receipts import printed, record_notice
from tableside.plugins.korona.exports.protocol_pdf import protocol_pdf
from tableside.plugins.korona.exports.sheet import protocol_sheet
from tableside.web.context import context
from tableside.web.downloads import FaceLanguage
from tableside.web.problems import coded
from tableside.web.transport import public_base

_ALL = 2**62


@get("/api/matches/{match_id:uuid}/protocol.pdf", summary="A match's protocol as PDF")
async def protocol_pdf_file(
    request: Request,
    state: State,
    match_id: FromPath[UUID],
    lang: FaceLanguage = "en",
) -> Response[bytes]:
    """The official protocol (players, games and opening shots, sanctions, signature, the
    chain head to verify the record against, and the newest ending's signed receipt as a QR
    code and text)."""
    ctx = context(state)
    async with ctx.pool.acquire() as conn:
        records = await read_stream(conn, ctx.registry, match_id, _ALL)
        head = await event_hash(conn, match_id, records[-1].version) if records else ""
    if not records or not isinstance(records[0].event, MatchCreated):
        raise NotFoundException(f"No match {match_id}", extra=coded("no_match"))
    sheet = protocol_sheet(records)
    sheet.events, sheet.head_hash = records[-1].version, head
    sheet.competition = await _event_name(ctx.pool, sheet.competition)
    receipt = await printed(ctx, public_base(request), match_id)
    said = await record_notice(ctx, lang, match_id)
    return await pdf_attachment(
        request, f"protocol-{match_id}.pdf", protocol_pdf, sheet, lang, receipt, said
    )


async def _event_name(pool, competition_id: str) -> str:
    """The competition's name from its guide, else its id (a match need not belong to one)."""
    if not competition_id:
        return ""
    name = await pool.fetchval(
        "SELECT name FROM competition_view WHERE competition_id::text = $1", competition_id
    )
    return name or competition_id


EXPORT_ROUTES = [protocol_pdf_file]
