"""Downloads: a match's record as JSON Lines (auditor), its protocol as PDF (public)."""

from __future__ import annotations

from collections.abc import Callable
from uuid import UUID

import anyio.to_thread
from litestar import Request, Response, get
from litestar.datastructures import State
from litestar.exceptions import HTTPException, NotFoundException
from litestar.params import FromPath

from tableside.disciplines.korona.events import MatchCreated
from tableside.eventlog.checkpoint_db import seal_async
from tableside.eventlog.jsonl import export_lines
from tableside.eventlog.source import event_hash, read_stream
from tableside.match.exports.fonts import FontMissing
from tableside.match.exports.pdf import protocol_pdf
from tableside.match.exports.sheet import protocol_sheet
from tableside.match.http.audit_routes import _records
from tableside.match.receipts import printed
from tableside.web.context import context
from tableside.web.downloads import Language, attachment

_ALL = 2**62


@get("/api/matches/{match_id:uuid}/record.jsonl", summary="A match's record as JSON Lines")
async def record_jsonl(request: Request, state: State, match_id: FromPath[UUID]) -> Response[bytes]:
    """Header (with the latest signed checkpoint covering it), one line per stored event with
    its hashes, link lines up to the checkpoint; `tableside audit verify --file --public-key`."""
    records = await _records(request, state, match_id)
    ctx = context(state)
    lines = export_lines(records, match_id, await seal_async(ctx.pool, ctx.signing_key, records))
    return attachment(b"".join(lines), "application/jsonl", f"match-{match_id}.jsonl")


@get("/api/matches/{match_id:uuid}/protocol.pdf", summary="A match's protocol as PDF")
async def protocol_pdf_file(
    request: Request,
    state: State,
    match_id: FromPath[UUID],
    lang: Language = "en",
) -> Response[bytes]:
    """The official protocol (players, games and opening shots, sanctions, signature, the
    chain head to verify the record against, and the newest ending's signed receipt as a QR
    code and text)."""
    ctx = context(state)
    async with ctx.pool.acquire() as conn:
        records = await read_stream(conn, ctx.registry, match_id, _ALL)
        head = await event_hash(conn, match_id, records[-1].version) if records else ""
    if not records or not isinstance(records[0].event, MatchCreated):
        raise NotFoundException(f"No match {match_id}")
    sheet = protocol_sheet(records)
    sheet.events, sheet.head_hash = records[-1].version, head
    sheet.competition = await _event_name(ctx.pool, sheet.competition)
    receipt = await printed(ctx, str(request.base_url), match_id)
    return await pdf_attachment(f"protocol-{match_id}.pdf", protocol_pdf, sheet, lang, receipt)


async def pdf_attachment(filename: str, render: Callable[..., bytes], *args) -> Response[bytes]:
    """`render(*args)` (fpdf2, in a worker thread) as a PDF download; 503 saying which font
    package to install when DejaVu Sans is missing."""
    try:
        pdf = await anyio.to_thread.run_sync(render, *args)
    except FontMissing as exc:
        raise HTTPException(status_code=503, detail=str(exc)) from None
    return attachment(pdf, "application/pdf", filename)


async def _event_name(pool, competition_id: str) -> str:
    """The competition's name from its guide, else its id (a match need not belong to one)."""
    if not competition_id:
        return ""
    name = await pool.fetchval(
        "SELECT name FROM competition_view WHERE competition_id::text = $1", competition_id
    )
    return name or competition_id


EXPORT_ROUTES = [record_jsonl, protocol_pdf_file]
