"""Who is asking: staff sessions (`ts_…`) and table judge tokens (`tj_…`), checked in the DB."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from uuid import UUID

import asyncpg
from litestar.connection import ASGIConnection
from litestar.exceptions import NotAuthorizedException, PermissionDeniedException

from tableside.web.ratelimit import RateLimiter

STAFF_ROLES = ("head_judge", "secretary", "auditor")

_SESSION = """
SELECT a.username, a.role{take} FROM staff_sessions s JOIN staff_accounts a USING (username)
WHERE s.token_hash = $1 AND s.expires_at > now()
"""
_JUDGE = """
SELECT token_id, table_no{take} FROM judge_tokens
WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > now()
"""
# With a rate limit to take from (a command route): the token's bucket is spent in the same
# round trip, only for a token that is valid (rate_take, schema/109; evaluated per row found).
_TAKE = ", rate_take($2, $3, $4) AS wait"
_QUERIES = {
    (prefix, taking): query.format(take=_TAKE if taking else "")
    for prefix, query in (("tj_", _JUDGE), ("ts_", _SESSION))
    for taking in (False, True)
}


@dataclass(frozen=True, slots=True)
class Principal:
    """An authenticated caller: a staff member or a table's judge."""

    role: str  # head_judge | secretary | auditor | table_judge
    name: str
    key: str  # rate-limit bucket: one per bearer token
    table: int | None = None
    token_id: UUID | None = None


def token_hash(token: str) -> bytes:
    """What the database stores of a bearer token."""
    return hashlib.sha256(token.encode()).digest()


def new_token(prefix: str) -> str:
    """A fresh bearer token: `ts_` for sessions, `tj_` for table judges."""
    return prefix + secrets.token_urlsafe(24)


def bearer(connection: ASGIConnection) -> str | None:
    """The bearer token of a request: the `Authorization` header only (ASVS V7.2.2, V14.2.1).

    The websocket authenticates by its first message instead (`tableside.live.socket_auth`).
    """
    header = connection.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip() or None
    return None


async def no_token_in_url(connection: ASGIConnection, _: object = None) -> None:
    """App-wide guard: a `token` (or `access_token`) query parameter is refused with 401.

    URLs end up in proxy and browser logs and in Referer headers, so a token there counts as
    leaked (ASVS V14.2.1); the caller learns where the token belongs instead.
    """
    if any(name in connection.query_params for name in URL_TOKEN_PARAMS):
        raise NotAuthorizedException(
            "Tokens are not accepted in the URL: send them in the Authorization header "
            "(Bearer …), or, on /live, in the first message"
        )


URL_TOKEN_PARAMS = ("token", "access_token")


async def resolve(pool: asyncpg.Pool, token: str | None) -> Principal | None:
    """The principal of a token; None without one; 401 for an unknown, expired or revoked one."""
    return (await resolve_taking(pool, token, None))[0]


async def resolve_taking(
    pool: asyncpg.Pool, token: str | None, limiter: RateLimiter | None
) -> tuple[Principal | None, float]:
    """`resolve`, and with `limiter` one token of the caller's bucket spent in the same round
    trip (issue 32: one query less per command): (principal, seconds to wait; 0 = allowed)."""
    if token is None:
        return None, 0.0
    digest = token_hash(token)
    key = digest.hex()[:16]
    prefix = token[:3]
    query = _QUERIES.get((prefix, limiter is not None))
    if query is not None:
        args = (limiter.bucket(key), limiter.rate, float(limiter.burst)) if limiter else ()
        row = await pool.fetchrow(query, digest, *args)
        if row is not None:
            wait = float(row["wait"]) if limiter else 0.0
            if prefix == "tj_":
                name = f"table-{row['table_no']}-judge"
                return Principal("table_judge", name, key, row["table_no"], row["token_id"]), wait
            return Principal(row["role"], row["username"], key), wait
    raise NotAuthorizedException("Invalid, expired or revoked token")


def require(principal: Principal | None, *roles: str) -> Principal:
    """401 without a principal, 403 when its role is not one of `roles`."""
    if principal is None:
        raise NotAuthorizedException("Log in or use a table judge token")
    if principal.role not in roles:
        raise PermissionDeniedException(f"Needs one of: {', '.join(roles)}")
    return principal
