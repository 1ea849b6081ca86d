"""Staff login with throttling and lockout, password change, and the head judge's unlock.

Throttling policy (docs/decisions/, ASVS V6.3.1): each client address gets
`login_per_minute` attempts a minute (a token bucket in PostgreSQL, shared by every worker
and node: web/ratelimit.py); a username that meets
`login_failures` wrong passwords in a row is locked for `login_lockout_minutes`, on every
replica (PostgreSQL). Both answer 429 with Retry-After. A right password clears the count;
the head judge can lift a lockout at once (`DELETE /api/login-lockouts/{username}`).
"""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Request, delete, get, post
from litestar.exceptions import HTTPException, NotAuthorizedException, NotFoundException
from litestar.params import JSONBody, PathParameter

from tableside.staff import accounts, lockouts
from tableside.staff.auth_dto import LoginRequest, LoginResponse, PasswordChange
from tableside.web.auth import STAFF_ROLES, bearer, require, resolve
from tableside.web.context import Context, Pool, Services
from tableside.web.guards import principal_of, signed_in
from tableside.web.problems import coded, too_many

Username = Annotated[str, PathParameter(min_length=1, max_length=80, pattern=r"^[^\x00-\x1f]+$")]
LOCKED = "Account locked after repeated wrong passwords; the head judge can unlock it"


async def _throttle(ctx: Context, request: Request, username: str) -> None:
    """429 when this client tries too fast or this name is locked out."""
    client = request.client.host if request.client else "unknown"
    wait = await ctx.login_clients.allow(ctx.pool, client)
    if wait:
        raise too_many(
            "Too many login attempts from this address", wait, "client", "too_many_logins"
        )
    wait = await lockouts.locked_for(ctx.pool, username)
    if wait:
        raise too_many(LOCKED, wait, "account", "login_locked")


@post("/api/login", summary="Staff login")
async def login(request: Request, ctx: Services, data: JSONBody[LoginRequest]) -> LoginResponse:
    """A bearer token for a head judge, secretary or auditor; throttled, 429 when locked."""
    await _throttle(ctx, request, data.username)
    found = await accounts.login(ctx.pool, data.username, data.password)
    if found is None:
        s = ctx.settings
        if await lockouts.record_failure(
            ctx.pool, data.username, s.login_failures, s.login_lockout_minutes
        ):
            raise too_many(LOCKED, s.login_lockout_minutes * 60, "account", "login_locked")
        raise NotAuthorizedException("Wrong username or password", extra=coded("wrong_login"))
    await lockouts.clear(ctx.pool, data.username)
    token, role, expires = found
    return LoginResponse(token, data.username, role, expires.isoformat())


@post(
    "/api/account/password",
    status_code=204,
    summary="Change your own password",
    guards=[signed_in(*STAFF_ROLES)],  # the token before the body (issue 11 point 4)
)
async def change_password(request: Request, ctx: Services, data: JSONBody[PasswordChange]) -> None:
    """Any staff member, with the current password; their other sessions end (ASVS V6.2.3)."""
    me = principal_of(request, *STAFF_ROLES)
    await _throttle(ctx, request, me.name)
    if data.new_password in (data.current_password, me.name):
        raise HTTPException(
            status_code=422,
            detail="Choose a new password unlike the old one",
            extra=coded("password_unchanged"),
        )
    if not await accounts.change_password(
        ctx.pool, me.name, data.current_password, data.new_password, bearer(request) or ""
    ):
        s = ctx.settings
        await lockouts.record_failure(ctx.pool, me.name, s.login_failures, s.login_lockout_minutes)
        raise HTTPException(
            status_code=403, detail="The current password is wrong", extra=coded("password_wrong")
        )


@get("/api/login-lockouts", summary="Staff names locked after wrong passwords")
async def list_lockouts(request: Request, pool: Pool) -> list[dict[str, Any]]:
    """Head judge: who is locked out, after how many failures, until when."""
    require(await resolve(pool, bearer(request)), "head_judge")
    return await lockouts.locked(pool)


@delete("/api/login-lockouts/{username:str}", status_code=204, summary="Lift a login lockout")
async def unlock(request: Request, pool: Pool, username: Username) -> None:
    """Head judge: the name may log in again at once (404 when it has no failures)."""
    require(await resolve(pool, bearer(request)), "head_judge")
    if not await lockouts.clear(pool, username):
        raise NotFoundException(f"No failed logins for {username!r}", extra=coded("no_lockout"))


LOGIN_ROUTES = [login, change_password, list_lockouts, unlock]
