"""Korona's POST endpoints: create a match, post a command to it. Idempotent by command_id."""

from __future__ import annotations

import uuid
from functools import partial
from uuid import UUID

import msgspec
from litestar import Request, post
from litestar.datastructures import State
from litestar.params import FromPath, JSONBody

from tableside.disciplines.korona import commands as rc
from tableside.eventlog.digest import command_digest
from tableside.match.events import MatchScheduled
from tableside.match.http.command_routes import (
    MATCH_IDS,
    command_caller,
    command_meta,
    store_command,
)
from tableside.match.http.dto import CommandResponse
from tableside.match.http.responses import stored_response
from tableside.plugins.korona.http.command_auth import (
    authorizer,
    confirmed_by_caller,
    roles_for,
)
from tableside.plugins.korona.http.dto import CommandRequest, CreateMatchRequest
from tableside.web.context import context
from tableside.web.guards import signed_in


@post(
    "/api/matches",
    status_code=201,
    summary="Create a match on a table",
    guards=[signed_in("head_judge", "secretary", commands=True)],
)
async def create_match(
    request: Request, state: State, data: JSONBody[CreateMatchRequest]
) -> CommandResponse:
    """Head judge or secretary: MatchCreated + MatchScheduled at version 0."""
    ctx = context(state)
    principal = await command_caller(ctx, request, "head_judge", "secretary")
    match_id = data.match_id or uuid.uuid5(MATCH_IDS, str(data.command_id))
    command = rc.CreateMatch(
        match_id=str(match_id),
        side_a=data.side_a,
        side_b=data.side_b,
        ruleset=data.ruleset,
        fmt=data.format,
        games=data.games,
        play_all=data.play_all,
        points=data.points,
        fill_silences=data.fill_silences,
        at=data.at,
    )
    venue = MatchScheduled(table=data.table, competition_id=data.competition_id, at=data.at)
    work = partial(
        ctx.matches.create,
        match_id,
        command,
        venue,
        command_id=data.command_id,
        meta=command_meta(principal, data.device_id, data.device_time),
    )
    asked = msgspec.structs.asdict(data)
    for transport in ("command_id", "match_id", "expected_version", "device_id", "device_time"):
        del asked[transport]
    digest = command_digest("match.create", match_id, asked)
    # The table must be free in the hall, but a retry of a stored create is answered as stored.
    if ctx.hall is None or await stored_response(ctx.pool, data.command_id, digest):
        return await store_command(ctx, data.command_id, match_id, work, digest)
    async with ctx.hall(data.table) as conn:
        return await store_command(ctx, data.command_id, match_id, work, digest, conn)


@post(
    "/api/matches/{match_id:uuid}/commands",
    status_code=201,
    summary="Post a match command",
    guards=[signed_in("head_judge", "secretary", "table_judge", commands=True)],
)
async def post_command(
    request: Request, state: State, match_id: FromPath[UUID], data: JSONBody[CommandRequest]
) -> CommandResponse:
    """A judge report, a call to the table or a head-judge correction at `expected_version`."""
    ctx = context(state)
    principal = await command_caller(ctx, request, *roles_for(data.command))
    current = await ctx.tables.current(ctx.pool, principal.table)
    work = partial(
        ctx.matches.execute_async,
        match_id,
        confirmed_by_caller(data.command, principal),
        expected_version=data.expected_version,
        command_id=data.command_id,
        meta=command_meta(principal, data.device_id, data.device_time),
        authorize=authorizer(principal, current),
    )
    digest = command_digest("match.command", match_id, data.command)
    return await store_command(ctx, data.command_id, match_id, work, digest)
