"""Input PostgreSQL cannot hold: NUL characters are refused before any handler runs."""

from __future__ import annotations

from urllib.parse import unquote_to_bytes

from litestar import Request
from litestar.exceptions import ValidationException


async def refuse_nul(request: Request) -> None:
    """400 for a NUL in the query or the body (text and jsonb columns cannot store one)."""
    if b"\x00" in unquote_to_bytes(request.scope.get("query_string", b"")):
        raise ValidationException("NUL characters are not allowed", extra=[{"key": "query"}])
    if request.method in ("POST", "PUT", "PATCH"):
        body = await request.body()
        if b"\x00" in body or b"\\u0000" in body:
            raise ValidationException("NUL characters are not allowed", extra=[{"key": "body"}])
