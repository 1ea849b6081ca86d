"""Input PostgreSQL and the file system cannot hold: NUL characters are refused before any
handler runs (path, query and body; ASVS V1.2 decoding, no 500 for a NUL)."""

from __future__ import annotations

from urllib.parse import unquote_to_bytes

from litestar import Request
from litestar.exceptions import ValidationException


def _nul(where: str) -> ValidationException:
    return ValidationException(
        "NUL characters are not allowed", extra=[{"key": where, "source": where}]
    )


async def refuse_nul(request: Request) -> None:
    """400 for a NUL in the path, the query or the body (text and jsonb columns cannot store
    one; `open()` refuses one)."""
    if "\x00" in request.scope.get("path", ""):
        raise _nul("path")
    if b"\x00" in unquote_to_bytes(request.scope.get("query_string", b"")):
        raise _nul("query")
    if request.method in ("POST", "PUT", "PATCH"):
        body = await request.body()
        if b"\x00" in body or b"\\u0000" in body:
            raise _nul("body")
