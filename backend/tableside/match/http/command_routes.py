"""What every command endpoint shares: the caller held to its roles and the command rate, who
recorded it from which device, storing it once and answering a retry as stored (idempotent by
command_id). The match routes (`port_routes.py`) are built on these."""

from __future__ import annotations

import inspect
from functools import partial
from uuid import UUID

import anyio.to_thread
from litestar import Request
from litestar.exceptions import HTTPException
from litestar.params import FromPath

from tableside.eventlog import VersionConflict
from tableside.match.http.dto import CommandResponse
from tableside.match.http.responses import fresh_response, stored_response
from tableside.rule_error import RuleError
from tableside.web.auth import Principal
from tableside.web.context import Context
from tableside.web.guards import principal_of
from tableside.web.problems import coded


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
            extra=coded("too_many_commands"),
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
    except (VersionConflict, RuleError):  # a concurrent retry may have stored the command
        prior = await stored_response(db, command_id, digest)  # a retry, or a race lost
        if prior is None:
            raise
    else:
        fresh = result.payloads and not result.replayed
        prior = fresh_response(result, command_id) if fresh else None
        prior = prior or await stored_response(db, command_id, digest)
    if prior.match_id != match_id:
        raise HTTPException(
            status_code=409,
            detail="command_id was used for another match",
            extra=coded("command_reused"),
        )
    return prior
