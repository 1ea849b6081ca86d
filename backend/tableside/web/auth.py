"""Who is asking: staff sessions (`ts_…`) and table judge tokens (`tj_…`), checked in the DB."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from uuid import UUID

import asyncpg
from litestar.connection import ASGIConnection
from litestar.exceptions import NotAuthorizedException, PermissionDeniedException

from tableside.eventlog.group_commit import AsyncGroupCommit
from tableside.web.problems import coded
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
    if not connection.scope.get("query_string"):  # most requests: no query to parse
        return
    if any(name in connection.query_params for name in URL_TOKEN_PARAMS):
        raise NotAuthorizedException(
            "Tokens are not accepted in the URL: send them in the Authorization header "
            "(Bearer …), or, on /live, in the first message",
            extra=coded("token_in_url"),
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
            return _principal(prefix, row, key), float(row["wait"]) if limiter else 0.0
    raise NotAuthorizedException("Invalid, expired or revoked token", extra=coded("token_invalid"))


def _principal(prefix: str, row: asyncpg.Record, key: str) -> Principal:
    """The principal a found judge token (`tj_`) or staff session (`ts_`) row names."""
    if prefix == "tj_":
        name = f"table-{row['table_no']}-judge"
        return Principal("table_judge", name, key, row["table_no"], row["token_id"])
    return Principal(row["role"], row["username"], key)


# The same check for many tokens at once (TokenChecks): one row per valid token, `i` its
# place in the arrays.
_BATCH = {
    "tj_": """
SELECT t.i, j.token_id, j.table_no, rate_take(t.bucket, $3, $4) AS wait
FROM unnest($1::bytea[], $2::text[]) WITH ORDINALITY AS t(hash, bucket, i)
JOIN judge_tokens j ON j.token_hash = t.hash
WHERE j.revoked_at IS NULL AND j.expires_at > now()
""",
    "ts_": """
SELECT t.i, a.username, a.role, rate_take(t.bucket, $3, $4) AS wait
FROM unnest($1::bytea[], $2::text[]) WITH ORDINALITY AS t(hash, bucket, i)
JOIN staff_sessions s ON s.token_hash = t.hash JOIN staff_accounts a USING (username)
WHERE s.expires_at > now()
""",
}


class TokenChecks:
    """The command routes' token checks, each with its rate take, batched: checks that arrive
    while one is in flight go together in one round trip (leader/follower on the loop, as the
    store's group commit: a lone check goes at once). Same answers as `resolve_taking`."""

    def __init__(self, pool: asyncpg.Pool, limiter: RateLimiter, wait_seconds: float) -> None:
        self._pool, self._limiter = pool, limiter
        self._batch: AsyncGroupCommit[str, tuple[Principal, float] | None] = AsyncGroupCommit(
            self._flush, wait_seconds=wait_seconds
        )

    async def check(self, token: str | None) -> tuple[Principal | None, float]:
        """(principal, seconds to wait; 0 = allowed); 401 for an unknown token."""
        if token is None:
            return None, 0.0
        found = await self._batch.submit(token) if token[:3] in _BATCH else None
        if found is None:
            raise NotAuthorizedException(
                "Invalid, expired or revoked token", extra=coded("token_invalid")
            )
        return found

    async def _flush(self, tokens: Sequence[str]) -> list[tuple[Principal, float] | None]:
        if len(tokens) == 1:  # alone: the one-token query, as without batching
            try:
                return [await resolve_taking(self._pool, tokens[0], self._limiter)]  # type: ignore[list-item]
            except NotAuthorizedException:
                return [None]
        found: list[tuple[Principal, float] | None] = [None] * len(tokens)
        limiter = self._limiter
        for prefix, query in _BATCH.items():
            mine = [i for i, token in enumerate(tokens) if token.startswith(prefix)]
            if not mine:
                continue
            digests = [token_hash(tokens[i]) for i in mine]
            keys = [d.hex()[:16] for d in digests]
            buckets = [limiter.bucket(k) for k in keys]
            rate, burst = limiter.rate, float(limiter.burst)
            for row in await self._pool.fetch(query, digests, buckets, rate, burst):
                at = row["i"] - 1
                key, wait = keys[at], float(row["wait"])
                found[mine[at]] = (_principal(prefix, row, key), wait)
        return found


def require(principal: Principal | None, *roles: str) -> Principal:
    """401 without a principal, 403 when its role is not one of `roles`."""
    if principal is None:
        raise NotAuthorizedException(
            "Log in or use a table judge token", extra=coded("login_needed")
        )
    if principal.role not in roles:
        raise PermissionDeniedException(
            f"Needs one of: {', '.join(roles)}", extra=coded("needs_role")
        )
    return principal
