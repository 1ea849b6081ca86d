"""The files a venue publishes, made at the federation from the kept events with the venue's
own makers (decision 0174): a competition's results file (`competition/results_file.py`) and a
match's exports through its discipline's port (the protocol PDF, …), exactly as the venue
draws them from its own store."""

from __future__ import annotations

from uuid import UUID

import anyio.to_thread
import asyncpg
from litestar import Response
from litestar.exceptions import NotFoundException

from tableside.competition import results_file
from tableside.competition.rules.events import CompetitionCreated
from tableside.eventlog.source import Record
from tableside.federation.archive.competitions import fold_competition
from tableside.federation.archive.kept import kept_stream, registry
from tableside.match.http.export_routes import pdf_response
from tableside.plugins.house import house_disciplines
from tableside.web.downloads import attachment
from tableside.web.problems import coded

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


async def results(
    conn: asyncpg.Connection, venue_id: UUID, stream_id: UUID, kind: str, lang: str | None
) -> Response[bytes]:
    """The competition's results file (`csv` or `xlsx`) as its venue makes it."""
    records = await kept_stream(conn, venue_id, stream_id)
    if not records or records[0].type_name != CompetitionCreated.__struct_config__.tag:
        raise NotFoundException(extra=coded("archive_no_event"))
    state = fold_competition(registry(), records).state
    if kind == "csv":
        return attachment(results_file.results_csv(state, lang), "text/csv", "results.csv")
    xlsx = await anyio.to_thread.run_sync(results_file.results_xlsx, state, lang)
    return attachment(xlsx, XLSX, "results.xlsx")


async def match_export(
    conn: asyncpg.Connection, venue_id: UUID, match_id: UUID, filename: str, lang: str
) -> Response[bytes]:
    """The match's export `filename` by its discipline's port, from the kept events."""
    kept = await kept_stream(conn, venue_id, match_id)
    decoded = registry()
    records = [
        Record(
            r.stream_id,
            r.version,
            r.position,
            r.type_name,
            decoded.decode(r.type_name, r.payload),
            r.recorded_at,
        )
        for r in kept
    ]
    discipline = house_disciplines().of_event(records[0].event) if records else None
    if discipline is None:
        raise NotFoundException(extra=coded("no_match"))
    export = next((e for e in discipline.exports if e.filename == filename), None)
    if export is None:
        raise NotFoundException(extra=coded("no_export"))
    download, head = f"{discipline.name}-{match_id}-{filename}", kept[-1].hash.hex()
    if export.media_type == "application/pdf":
        return await pdf_response(download, export.render, records, lang, head)
    body = await anyio.to_thread.run_sync(export.render, records, lang, head)
    return attachment(body, export.media_type, download)
