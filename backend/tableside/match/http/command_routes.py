"""POST endpoints: create a match, post a command to it. Idempotent by command_id."""

from __future__ import annotations

import inspect
import uuid
from functools import partial
from uuid import UUID

import anyio.to_thread
import msgspec
from litestar import Request, post
from litestar.datastructures import State
from litestar.exceptions import HTTPException
from litestar.params import FromPath, JSONBody

from tableside.disciplines.backgammon import RuleViolation as BackgammonRuleViolation
from tableside.disciplines.korona import commands as rc
from tableside.disciplines.korona.errors import RuleViolation
from tableside.eventlog import VersionConflict
from tableside.eventlog.digest import command_digest
from tableside.match.events import MatchScheduled
from tableside.match.http.command_auth import authorizer, roles_for
from tableside.match.http.dto import CommandRequest, CommandResponse, CreateMatchRequest
from tableside.match.http.responses import fresh_response, stored_response
from tableside.web.auth import Principal
from tableside.web.context import Context, context
from tableside.web.guards import principal_of, signed_in

# A refusal by either discipline's rules: a concurrent retry may have stored the command.
RULE_ERRORS = (RuleViolation, BackgammonRuleViolation)

MATCH_IDS = uuid.UUID("5b0a3c1e-7d2f-4c55-9f41-2a7c1d6e8b90")  # uuid5 namespace for match ids


async def command_caller(ctx: Context, request: Request, *roles: str) -> Principal:
    """The principal the `signed_in` guard found, held to `roles` and the command rate (taken
    by the guard with the token check on a command route, `signed_in(commands=True)`)."""
    principal = principal_of(request, *roles)
    wait = request.state.get("command_wait")
    if wait is None:
        wait = await ctx.limiter.allow(ctx.pool, principal.key)
    if wait:
        raise HTTPException(
            status_code=429,
            detail="Too many commands from this token",
            headers={"Retry-After": str(max(1, round(wait)))},
        )
    return principal


def command_meta(principal: Principal, device_id: str, device_time: str) -> dict[str, str]:
    """Who recorded a command, from which device, at which device time."""
    meta = {"recorder": principal.name, "role": principal.role}
    if device_id:
        meta["device_id"] = device_id
    if device_time:
        meta["device_time"] = device_time
    return meta


async def store_command(
    ctx: Context, command_id: UUID, match_id: FromPath[UUID], work, digest: bytes, db=None
) -> CommandResponse:
    """Run `work(digest=…)` (a coroutine function on the loop, else in a worker thread) and
    answer from what it stored. A retry needs no
    read first: deciding again meets a moved stream (or the store finds the command_id under
    its lock) and the stored answer is read back; a command_id stored with another command
    is refused (CommandReused → 409). `db`: the connection holding the hall's lock, when
    the command holds it (its reads run there, never on the pool)."""
    db = db or ctx.pool
    try:
        if inspect.iscoroutinefunction(work):
            result = await work(digest=digest)
        else:
            result = await anyio.to_thread.run_sync(partial(work, digest=digest))
    except (VersionConflict, *RULE_ERRORS):
        prior = await stored_response(db, command_id, digest)  # a retry, or a race lost
        if prior is None:
            raise
    else:
        fresh = result.payloads and not result.replayed
        prior = fresh_response(result, command_id) if fresh else None
        prior = prior or await stored_response(db, command_id, digest)
    if prior.match_id != match_id:
        raise HTTPException(status_code=409, detail="command_id was used for another match")
    return prior


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
        data.command,
        expected_version=data.expected_version,
        command_id=data.command_id,
        meta=command_meta(principal, data.device_id, data.device_time),
        authorize=authorizer(principal, current),
    )
    digest = command_digest("match.command", match_id, data.command)
    return await store_command(ctx, data.command_id, match_id, work, digest)
