"""What is checked before a handler runs: NUL characters PostgreSQL and the file system cannot
hold (path, query; ASVS V1.1.1, no 500 for a NUL), whole numbers in the query written as
digits, the caller's token before the body is read (`signed_in`), and the body size limits."""

from __future__ import annotations

import functools
import re
from urllib.parse import unquote_to_bytes

from litestar import Request
from litestar.connection import ASGIConnection
from litestar.exceptions import ValidationException
from litestar.handlers.base import BaseRouteHandler
from litestar.params import ParameterKwarg

from tableside.web.auth import Principal, bearer, require, resolve_taking
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
    refuses one), and for a whole-number query parameter written any other way than digits
    (the parser would take "1.0" or "1e2" as a number). JSON bodies: the body gate refuses
    every control character, naming the field (`bodies.py`); an uploaded file (XLSX is a
    zip) may hold NUL bytes."""
    if "\x00" in request.scope.get("path", ""):
        raise _nul("path")
    if b"\x00" in unquote_to_bytes(request.scope.get("query_string", b"")):
        raise _nul("query")
    for name in _whole_numbers(request.route_handler):
        if any(not _DIGITS.fullmatch(v) for v in request.query_params.getall(name, [])):
            raise ValidationException(
                f"{name} must be a whole number in digits",
                extra=[{"key": name, "source": "query"}],
            )


_DIGITS = re.compile(r"-?[0-9]{1,19}")


@functools.cache
def _whole_numbers(handler: BaseRouteHandler) -> tuple[str, ...]:
    """The names of a handler's int (or optional int) query parameters."""
    out = []
    for name, field in handler.parsed_fn_signature.parameters.items():
        kwarg = field.kwarg_definition
        if isinstance(kwarg, ParameterKwarg) and (kwarg.header or kwarg.cookie):
            continue
        types = [t.annotation for t in field.inner_types] if field.is_optional else []
        if field.annotation is int or int in types:
            out.append(kwarg.query or name if isinstance(kwarg, ParameterKwarg) else name)
    return tuple(out)


def signed_in(*roles: str, commands: bool = False):
    """A guard: 401 without a valid token, 403 for a role not in `roles` — decided from the
    headers, before a byte of the body is read (ASVS V8.3.1 authorisation at the trusted
    layer, V4.2 resource limits: an anonymous 9 MB post costs nothing). The principal is kept
    on `request.state.principal`; handlers narrow the roles per command. With `commands` (a
    command route) the token's command rate is taken in the same round trip as the token
    check, the wait kept on `request.state.command_wait` (the handler answers 429)."""

    async def guard(connection: ASGIConnection, _: object) -> None:
        ctx = context(connection.app.state)
        if commands and ctx.token_checks is not None:  # batched with concurrent commands
            principal, wait = await ctx.token_checks.check(bearer(connection))
        else:
            limiter = ctx.limiter if commands else None
            principal, wait = await resolve_taking(ctx.pool, bearer(connection), limiter)
        connection.state.principal = require(principal, *roles)
        if commands:
            connection.state.command_wait = wait

    return guard


def principal_of(request: Request, *roles: str) -> Principal:
    """The principal `signed_in` found, held to the narrower `roles` of this command."""
    return require(request.state.principal, *roles)
