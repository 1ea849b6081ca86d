"""What is checked before a handler runs: NUL characters PostgreSQL and the file system cannot
hold (path, query; ASVS V1.1.1, no 500 for a NUL), the caller's token before the body
is read (`signed_in`), and the body size limits."""

from __future__ import annotations

from urllib.parse import unquote_to_bytes

from litestar import Request
from litestar.connection import ASGIConnection
from litestar.exceptions import ValidationException

from tableside.web.auth import Principal, bearer, require, resolve
from tableside.web.context import context

# Request bodies (issue 11 point 4): JSON commands and logins are a few hundred bytes, a
# competition guide a few KB; imported pairings files (CSV / XLSX) are larger.
BODY_LIMIT = 64 * 1024
FILE_LIMIT = 2 * 1024 * 1024


def _nul(where: str) -> ValidationException:
    return ValidationException(
        "NUL characters are not allowed", extra=[{"key": where, "source": where}]
    )


async def refuse_nul(request: Request) -> None:
    """400 for a NUL in the path or the query (text columns cannot store one; `open()`
    refuses one). JSON bodies: the body gate refuses every control character, naming the
    field (`bodies.py`); an uploaded file (XLSX is a zip) may hold NUL bytes."""
    if "\x00" in request.scope.get("path", ""):
        raise _nul("path")
    if b"\x00" in unquote_to_bytes(request.scope.get("query_string", b"")):
        raise _nul("query")


def signed_in(*roles: str):
    """A guard: 401 without a valid token, 403 for a role not in `roles` — decided from the
    headers, before a byte of the body is read (ASVS V8.3.1 authorisation at the trusted
    layer, V4.2 resource limits: an anonymous 9 MB post costs nothing). The principal is kept
    on `request.state.principal`; handlers narrow the roles per command."""

    async def guard(connection: ASGIConnection, _: object) -> None:
        ctx = context(connection.app.state)
        connection.state.principal = require(await resolve(ctx.pool, bearer(connection)), *roles)

    return guard


def principal_of(request: Request, *roles: str) -> Principal:
    """The principal `signed_in` found, held to the narrower `roles` of this command."""
    return require(request.state.principal, *roles)
