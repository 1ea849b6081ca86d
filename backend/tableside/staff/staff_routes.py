"""Staff accounts and table judge tokens (issue with QR code, revoke); login in `login_routes`."""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import quote
from uuid import UUID

import segno
from litestar import Request, delete, get, post
from litestar.exceptions import HTTPException, NotFoundException
from litestar.params import FromPath, JSONBody, PathParameter

from tableside.staff import accounts
from tableside.staff.auth_dto import AccountRequest, JudgeTokenResponse
from tableside.staff.links import reachable_link
from tableside.staff.login_routes import LOGIN_ROUTES
from tableside.web.auth import bearer, require, resolve
from tableside.web.context import AppSettings, Pool
from tableside.web.guards import signed_in
from tableside.web.problems import coded
from tableside.web.transport import public_base

TableNo = Annotated[int, PathParameter(ge=1, le=9999)]


@get("/api/whoami", summary="Who the bearer token belongs to")
async def whoami(request: Request, pool: Pool) -> dict[str, Any]:
    """Role, name and (for a judge) table of the caller; spectator without a token."""
    principal = await resolve(pool, bearer(request))
    if principal is None:
        return {"role": "spectator"}
    return {"role": principal.role, "name": principal.name, "table": principal.table}


@post(
    "/api/accounts",
    status_code=201,
    summary="Create a staff account",
    guards=[signed_in("head_judge")],  # before the body is read (issue 11 point 4)
)
async def create_account(
    request: Request, pool: Pool, data: JSONBody[AccountRequest]
) -> dict[str, str]:
    """Head judge only; 409 when the name is taken."""
    require(await resolve(pool, bearer(request)), "head_judge")
    if not await accounts.add_account(pool, data.username, data.role, data.password):
        raise HTTPException(
            status_code=409, detail="That username is taken", extra=coded("username_taken")
        )
    return {"username": accounts.staff_name(data.username), "role": data.role}


def judge_link(base: str, table: int, token: str, peers: tuple[str, ...] = ()) -> str:
    """The link a judge's tablet opens (the QR code's content); with peer servers it carries
    them too (`servers=`), so the pad knows where to go on before this server fails."""
    link = f"{base.rstrip('/')}/judge?table={table}#token={token}"
    return link + (f"&servers={quote(','.join(peers), safe='')}" if peers else "")


@post("/api/tables/{table:int}/judge-token", status_code=201, summary="Issue a table judge token")
async def issue_token(
    request: Request, pool: Pool, settings: AppSettings, table: TableNo
) -> JudgeTokenResponse:
    """Head judge or secretary: a token for this table's current match, with QR images."""
    staff = require(await resolve(pool, bearer(request)), "head_judge", "secretary")
    hours = settings.judge_token_hours
    token_id, token = await accounts.issue_judge_token(pool, table, staff.name, hours)
    asked = judge_link(public_base(request), table, token, settings.peers)
    link, reachable, lan_link = reachable_link(asked, settings.host)
    qr = segno.make(link, error="m")
    svg, png = qr.svg_data_uri(scale=4), qr.png_data_uri(scale=4)
    return JudgeTokenResponse(token_id, token, table, link, svg, png, reachable, lan_link)


@delete("/api/judge-tokens/{token_id:uuid}", status_code=204, summary="Revoke a judge token")
async def revoke_token(request: Request, pool: Pool, token_id: FromPath[UUID]) -> None:
    """Head judge or secretary; every server closes that token's sockets within a second."""
    require(await resolve(pool, bearer(request)), "head_judge", "secretary")
    if not await accounts.revoke_judge_token(pool, token_id):
        raise NotFoundException("No such active token", extra=coded("no_token"))


@get("/api/judge-tokens", summary="Active table judge tokens")
async def list_tokens(request: Request, pool: Pool) -> list[dict[str, Any]]:
    """Head judge or secretary: which tables have tokens out (ids to revoke, no secrets)."""
    require(await resolve(pool, bearer(request)), "head_judge", "secretary")
    return await accounts.active_judge_tokens(pool)


@post("/api/logout", status_code=204, summary="End a staff session")
async def logout(request: Request, pool: Pool) -> None:
    """The session token stops working at once."""
    require(await resolve(pool, bearer(request)), "head_judge", "secretary", "auditor")
    await accounts.logout(pool, bearer(request) or "")


STAFF_ROUTES = [
    *LOGIN_ROUTES,
    whoami,
    create_account,
    issue_token,
    revoke_token,
    list_tokens,
    logout,
]
