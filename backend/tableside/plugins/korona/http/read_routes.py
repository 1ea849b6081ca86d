"""Public reads (spectators, no login): live boards, a player's matches, protocols, tables,
match history."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import get
from litestar.datastructures import State
from litestar.exceptions import NotFoundException
from litestar.params import FromPath, Parameter, PathParameter

from tableside.eventlog.source import read_stream
from tableside.plugins.korona.folding import fold_records
from tableside.plugins.korona.views import live_doc
from tableside.web.consistency import MinPosition, settled
from tableside.web.context import context
from tableside.web.problems import coded

Doc = dict[str, Any]
Limit = Annotated[int, Parameter(ge=1, le=1000)]
_MATCHES = """
SELECT doc::text FROM match_live
WHERE ($1::int IS NULL OR table_no = $1) AND ($2::text IS NULL OR competition_id = $2)
  AND ($3::text IS NULL OR status = $3)
ORDER BY table_no NULLS LAST, position DESC LIMIT $4
"""
_TABLES = """
SELECT doc::text FROM table_overview WHERE ($1::text IS NULL OR competition_id = $1)
ORDER BY table_no
"""
_PLAYER = """
SELECT doc::text FROM match_live
WHERE doc->'side_a' ? $1 OR doc->'side_b' ? $1 ORDER BY updated_at DESC LIMIT $2
"""
_HISTORY = """
SELECT version, position, type, rule, text, recorded_at FROM match_history
WHERE match_id = $1 AND version > $2 ORDER BY version LIMIT $3
"""


def _docs(rows: list) -> list[Doc]:
    return [msgspec.json.decode(r[0]) for r in rows]


async def _one(state: State, query: str, match_id: FromPath[UUID]) -> Doc:
    text = await context(state).pool.fetchval(query, match_id)
    if text is None:
        raise NotFoundException(f"No match {match_id}", extra=coded("no_match"))
    return msgspec.json.decode(text)


@get("/api/matches", summary="Live boards of matches")
async def list_matches(
    state: State,
    table: Annotated[int | None, Parameter(ge=1, le=9999)] = None,
    competition: Annotated[str | None, Parameter(max_length=80)] = None,
    status: Annotated[str | None, Parameter(max_length=20)] = None,
    limit: Limit = 200,
    min_position: MinPosition = 0,
) -> list[Doc]:
    """Matches, filtered by table, competition or status."""
    await settled(state, "live", min_position)
    return _docs(await context(state).pool.fetch(_MATCHES, table, competition, status, limit))


@get("/api/matches/{match_id:uuid}", summary="A match's live board")
async def get_match(state: State, match_id: FromPath[UUID], min_position: MinPosition = 0) -> Doc:
    """The live document of one match."""
    await settled(state, "live", min_position)
    return await _one(state, "SELECT doc::text FROM match_live WHERE match_id = $1", match_id)


@get("/api/matches/{match_id:uuid}/protocol", summary="A match's protocol")
async def get_protocol(
    state: State, match_id: FromPath[UUID], min_position: MinPosition = 0
) -> Doc:
    """Players, games, opening shot, remarks, penalties, corrections, signatures."""
    await settled(state, "protocol", min_position)
    return await _one(state, "SELECT doc::text FROM match_protocol WHERE match_id = $1", match_id)


@get("/api/matches/{match_id:uuid}/history", summary="A match's event log in plain words")
async def get_history(
    state: State,
    match_id: FromPath[UUID],
    after: Annotated[int, Parameter(ge=0, le=10**9)] = 0,
    limit: Limit = 1000,
    min_position: MinPosition = 0,
) -> list[Doc]:
    """One line per stored event, in version order."""
    await settled(state, "history", min_position)
    rows = await context(state).pool.fetch(_HISTORY, match_id, after, limit)
    return [{**dict(r), "recorded_at": r["recorded_at"].isoformat()} for r in rows]


@get("/api/matches/{match_id:uuid}/at/{version:int}", summary="A match's board at a version")
async def get_match_at(
    state: State, match_id: FromPath[UUID], version: Annotated[int, PathParameter(ge=1, le=10**9)]
) -> Doc:
    """The live document after stored version `version`, folded from the events (for replay)."""
    ctx = context(state)
    async with ctx.pool.acquire() as conn:
        view = fold_records(await read_stream(conn, ctx.registry, match_id, version))
    if view is None or view.version != version or not view.state.created:
        raise NotFoundException(
            f"No match {match_id} at version {version}", extra=coded("no_match_version")
        )
    return live_doc(view)


@get("/api/tables", summary="What every table is playing now")
async def list_tables(
    state: State,
    competition: Annotated[str | None, Parameter(max_length=80)] = None,
    min_position: MinPosition = 0,
) -> list[Doc]:
    """One live document per table (its latest match)."""
    await settled(state, "tables", min_position)
    return _docs(await context(state).pool.fetch(_TABLES, competition))


@get("/api/tables/{table:int}", summary="What one table is playing now")
async def get_table(
    state: State, table: Annotated[int, PathParameter(ge=1, le=9999)], min_position: MinPosition = 0
) -> Doc:
    """The live document of the table's latest match (404 when it has none)."""
    await settled(state, "tables", min_position)
    text = await context(state).pool.fetchval(
        "SELECT doc::text FROM table_overview WHERE table_no = $1", table
    )
    if text is None:
        raise NotFoundException(
            f"Table {table} has no match", extra=coded("table_no_match", table=table)
        )
    return msgspec.json.decode(text)


@get("/api/players/{name:str}/matches", summary="A player's matches")
async def player_matches(
    state: State,
    name: Annotated[str, PathParameter(min_length=1, max_length=80)],
    limit: Annotated[int, Parameter(ge=1, le=500)] = 100,
    min_position: MinPosition = 0,
) -> list[Doc]:
    """The live documents of every match the player (exact name) is listed in, newest first."""
    await settled(state, "live", min_position)
    return _docs(await context(state).pool.fetch(_PLAYER, name, limit))


READ_ROUTES = [
    list_matches,
    player_matches,
    get_match,
    get_match_at,
    get_protocol,
    get_history,
    list_tables,
    get_table,
]
