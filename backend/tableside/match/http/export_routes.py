"""Downloads: a match's record as JSON Lines (auditor), whatever its discipline; a PDF
attachment drawn in a worker thread (each discipline's protocol, the standings)."""

from __future__ import annotations

from collections.abc import Callable
from uuid import UUID

import anyio.to_thread
from litestar import Request, Response, get
from litestar.datastructures import State
from litestar.exceptions import HTTPException
from litestar.params import FromPath

from tableside.eventlog.jsonl import export_lines
from tableside.match.exports.fonts import FontMissing
from tableside.match.http.audit_routes import _records, newest_seal
from tableside.web.context import context
from tableside.web.downloads import attachment, said_disputed
from tableside.web.problems import coded, too_many

_ALL = 2**62


@get("/api/matches/{match_id:uuid}/record.jsonl", summary="A match's record as JSON Lines")
async def record_jsonl(request: Request, state: State, match_id: FromPath[UUID]) -> Response[bytes]:
    """Header (with the latest signed checkpoint covering it), one line per stored event with
    its hashes, link lines up to the checkpoint; `tableside audit verify --file --public-key`.
    On a disputed store nothing new is signed (#50: it answered 500): the record is sealed
    by the newest checkpoint already covering it, or not at all, and the answer says why
    (`Tableside-Record: disputed; <code>`)."""
    records = await _records(request, state, match_id)
    ctx = context(state)
    seal = await newest_seal(ctx, records) if records else None
    lines = export_lines(records, match_id, seal)
    download = attachment(b"".join(lines), "application/jsonl", f"match-{match_id}.jsonl")
    return said_disputed(download, state)


async def pdf_attachment(
    request: Request, filename: str, render: Callable[..., bytes], *args
) -> Response[bytes]:
    """`render(*args)` (fpdf2, in a worker thread) as a PDF download; 503 saying which font
    package to install when DejaVu Sans is missing; 429 when this client asks for more than
    TABLESIDE_PDF_PER_MINUTE (#50: anonymous protocols had no limit), before any drawing."""
    ctx = context(request.app.state)
    client = request.client.host if request.client else "unknown"
    wait = await ctx.pdf_clients.allow(ctx.pool, client)
    if wait:
        raise too_many("Too many PDFs from this address", wait, "client", "too_many_pdfs")
    return await pdf_response(filename, render, *args)


async def pdf_response(filename: str, render: Callable[..., bytes], *args) -> Response[bytes]:
    """`render(*args)` as a PDF download, with no limit of its own (the federation's public
    pages: their own app, no venue's rate table); 503 when DejaVu Sans is missing."""
    try:
        pdf = await anyio.to_thread.run_sync(render, *args)
    except FontMissing as exc:
        raise HTTPException(
            status_code=503, detail=str(exc), extra=coded("export_unavailable")
        ) from None
    return attachment(pdf, "application/pdf", filename)


EXPORT_ROUTES = [record_jsonl]
