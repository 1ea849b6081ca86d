"""Backgammon reads: the staff's list of matches from the read model `backgammon`
(`backgammon_matches`), newest activity first, a page at a time; the spectators' list of the
matches being played (public: names, length, score; nothing of the record's devices or
recorders); and a match's protocol as a PDF, drawn from its stored events."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

import asyncpg
from litestar import Request, Response, get
from litestar.datastructures import State
from litestar.exceptions import NotFoundException
from litestar.params import FromPath, Parameter

from tableside.eventlog.source import event_hash, read_stream
from tableside.match.http.export_routes import pdf_attachment
from tableside.match.receipts import printed, record_notice
from tableside.plugins.backgammon.exports.bg_pdf import bg_protocol_pdf
from tableside.plugins.backgammon.exports.bg_sheet import bg_sheet
from tableside.plugins.backgammon.folding import BG_FOLD
from tableside.plugins.backgammon.http.access import watchable
from tableside.plugins.backgammon.http.people import get_people
from tableside.web.consistency import MinPosition, settled
from tableside.web.context import context
from tableside.web.downloads import FaceLanguage
from tableside.web.guards import signed_in
from tableside.web.problems import coded
from tableside.web.transport import public_base

STAFF_READERS = ("head_judge", "secretary", "auditor")
COLUMNS = (
    "match_id, player_a, player_b, length, score_a, score_b, games, status, winner, confirmed,"
    " version, position, started_at, updated_at"
)
_ALL = 2**62
_PAGE = f"""
SELECT {COLUMNS} FROM backgammon_matches
WHERE ($1::bigint IS NULL OR position < $1)
ORDER BY position DESC LIMIT $2
"""


def _summary(r) -> dict[str, Any]:
    """What a spectator's list shows of a match (nothing of recorders or devices)."""
    return {
        "match_id": str(r["match_id"]),
        "players": [r["player_a"], r["player_b"]],
        "length": r["length"],
        "score": [r["score_a"], r["score_b"]],
        "games": r["games"],
        "status": r["status"],
        "winner": r["winner"] or None,
    }


def _row(r) -> dict[str, Any]:
    """One row of `backgammon_matches` as the API shows it (staff)."""
    return {
        "discipline": "backgammon",
        **_summary(r),
        "confirmed": r["confirmed"],
        "version": r["version"],
        "position": r["position"],
        "started_at": r["started_at"].isoformat(),
        "updated_at": r["updated_at"].isoformat(),
    }


@get(
    "/api/backgammon/matches",
    summary="Backgammon matches, newest activity first (staff)",
    guards=[signed_in(*STAFF_READERS)],
)
async def list_bg_matches(
    state: State,
    before: Annotated[int | None, Parameter(ge=1, le=10**12)] = None,
    limit: Annotated[int, Parameter(ge=1, le=100)] = 30,
    min_position: MinPosition = 0,
) -> dict[str, Any]:
    """A page of matches; `next` is the `before` of the following page (None at the end)."""
    await settled(state, "backgammon", min_position)
    rows = await context(state).pool.fetch(_PAGE, before, limit + 1)
    items = [_row(r) for r in rows[:limit]]
    return {"items": items, "next": items[-1]["position"] if len(rows) > limit else None}


# The competition a match was started for is its creating write's metadata (the flow's
# `competition_id`; none for a match of its own): the venue screen filtered to a competition
# shows only its matches.
COMPETITION_OF = """
SELECT meta::json->>'competition_id' FROM stored_events
WHERE originator_id = $1 AND originator_version = 1
"""
_PLAYING = """
SELECT m.match_id, player_a, player_b, length, score_a, score_b, games, status, winner,
    (SELECT s.meta::json->>'competition_id' FROM stored_events s
     WHERE s.originator_id = m.match_id AND s.originator_version = 1) AS competition_id
FROM backgammon_matches m
WHERE (status = 'playing' OR updated_at > now() - interval '2 hours')
  AND NOT spectators_barred
  AND NOT EXISTS (SELECT 1 FROM stored_events s WHERE s.originator_id = m.match_id
                  AND s.originator_version = 1 AND s.meta::json->>'source' = 'mat')
ORDER BY status DESC, updated_at DESC LIMIT $1
"""


async def playing(conn: asyncpg.Connection | asyncpg.Pool, limit: int = 100) -> list[dict]:
    """Matches being played, then those finished in the last two hours, each with the
    competition it was started for (None: a match of its own). A match imported from a file
    is history, not play in the hall: never listed (issue 53), whether or not it finished;
    nor is a match whose spectators the TD barred at a player's request (KSI 1.6.4)."""
    rows = await conn.fetch(_PLAYING, limit)
    return [{**_summary(r), "competition_id": r["competition_id"]} for r in rows]


@get("/api/backgammon/live", summary="Backgammon matches being played (public, spectators)")
async def playing_bg_matches(
    state: State,
    limit: Annotated[int, Parameter(ge=1, le=200)] = 100,
    min_position: MinPosition = 0,
) -> list[dict[str, Any]]:
    """Matches being played, then those finished in the last two hours: players, length,
    score, status, winner, the competition it was started for. Followed live on
    `/live?hall=backgammon` (the list) and `/live?match=<id>` (a match)."""
    await settled(state, "backgammon", min_position)
    return await playing(context(state).pool, limit)


_ON_TABLE = """
SELECT match_id, player_a, player_b, length, score_a, score_b, games, status, winner
FROM backgammon_matches WHERE table_no = $1 AND status = 'playing'
ORDER BY position DESC LIMIT 1
"""
_ON_TABLES = """
SELECT table_no, player_a, player_b FROM backgammon_matches
WHERE table_no IS NOT NULL AND status = 'playing'
"""
_EVERY_TABLE = """
SELECT DISTINCT ON (table_no) table_no, match_id, player_a, player_b, length, score_a, score_b,
       games, status, winner
FROM backgammon_matches WHERE table_no IS NOT NULL AND status = 'playing'
ORDER BY table_no, position DESC
"""


async def on_tables(conn: asyncpg.Connection | asyncpg.Pool) -> list[tuple[int, str, str]]:
    """(table, player A, player B) of every backgammon match being played on a hall table."""
    return [tuple(r) for r in await conn.fetch(_ON_TABLES)]


@get(
    "/api/backgammon/tables/{table:int}",
    summary="The backgammon match being played on a table (its judge device follows it)",
)
async def bg_match_on_table(
    state: State,
    table: Annotated[int, Parameter(ge=1, le=9999)],
    min_position: MinPosition = 0,
) -> dict[str, Any]:
    """The match (public summary) the table plays now; 404 when none is being played there."""
    await settled(state, "backgammon", min_position)
    row = await context(state).pool.fetchrow(_ON_TABLE, table)
    if row is None:
        raise NotFoundException(
            f"No backgammon match is being played on table {table}",
            extra=coded("table_no_match", table=table),
        )
    return {**_summary(row), "table": table}


@get("/api/backgammon/tables", summary="The backgammon match on every hall table that plays one")
async def bg_matches_on_tables(state: State, min_position: MinPosition = 0) -> list[dict[str, Any]]:
    """Each table's match being played (public summary and the table), in table order: the
    TD console's tables tell a playing backgammon table from one waiting for its players."""
    await settled(state, "backgammon", min_position)
    rows = await context(state).pool.fetch(_EVERY_TABLE)
    return [{**_summary(r), "table": r["table_no"]} for r in rows]


@get(
    "/api/backgammon/matches/{match_id:uuid}/protocol.pdf",
    summary="A backgammon match's protocol as PDF (KSI 4.6/4.7)",
)
async def bg_protocol_file(
    request: Request,
    state: State,
    match_id: FromPath[UUID],
    lang: FaceLanguage = "en",
    moves: Annotated[bool, Parameter(description="each game's moves too")] = False,
) -> Response[bytes]:
    """Players, length and clock; each game's start, cube, end and score; penalty points,
    pauses, clock events, rulings and appeals with their KSI paragraphs; the result as
    reported and confirmed; the chain head hash to verify the record against; with
    `moves=true`, each game's moves in the notation GNU Backgammon and Jellyfish use; the
    newest ending's signed receipt as a QR code and text."""
    ctx = context(state)
    async with ctx.pool.acquire() as conn:
        records = await read_stream(conn, ctx.registry, match_id, _ALL)
        head = await event_hash(conn, match_id, records[-1].version) if records else ""
    try:
        sheet = bg_sheet(records)
    except ValueError:
        raise NotFoundException(
            f"No backgammon match {match_id}", extra=coded("no_match")
        ) from None
    await watchable(request, BG_FOLD.whole(records).state)
    sheet.head_hash = head
    receipt = await printed(ctx, public_base(request), match_id)
    said = await record_notice(ctx, lang, match_id)
    return await pdf_attachment(
        request, f"protocol-{match_id}.pdf", bg_protocol_pdf, sheet, lang, moves, receipt, said
    )


BACKGAMMON_READ_ROUTES = [
    list_bg_matches,
    playing_bg_matches,
    bg_matches_on_tables,
    bg_match_on_table,
    bg_protocol_file,
    get_people,
]
