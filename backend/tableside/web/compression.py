"""JSON answers gzipped for a client that asks (issue 45, decision 0139).

A match's events (34.5 KB) and its record (70 KB) went out as stored: 2.8 KB and 8.7 KB
gzipped. `JsonGzip` wraps the app: an `application/json` (or problem+json) answer of 1 KB
or more is gzipped when the request's `Accept-Encoding` takes gzip, with `Vary:
Accept-Encoding` and its own ETag (RFC 9110 §8.8.3). Anything else — the faces' files (gzipped
once per content by `web/assets.py`), PDFs, workbooks, JSON Lines downloads — passes
untouched and unbuffered; the /live websocket is not HTTP and never comes here.
"""

from __future__ import annotations

import gzip
from functools import partial

import anyio.to_thread

SMALLEST = 1024  # below this the gzip header and the CPU are not worth it
LEVEL = 6  # zlib's default: within a few per cent of 9 on JSON, at a fraction of the time
IN_A_THREAD = 16 * 1024  # larger bodies are compressed off the event loop
JSON_TYPES = (b"application/json", b"application/problem+json")


def takes_gzip(accept_encoding: str) -> bool:
    """Whether an Accept-Encoding header admits gzip (not refused with q=0)."""
    for item in accept_encoding.lower().split(","):
        coding, _, params = item.partition(";")
        if coding.strip() not in ("gzip", "*"):
            continue
        weight = params.strip()
        if not weight.startswith("q="):
            return True
        try:
            return float(weight[2:]) > 0
        except ValueError:
            return False
    return False


def _header(headers, name: bytes) -> bytes | None:
    return next((v for k, v in headers if k.lower() == name), None)


def _is_json(start: dict) -> bool:
    """A JSON answer nobody has encoded yet."""
    headers = start.get("headers") or []
    kind = (_header(headers, b"content-type") or b"").split(b";")[0].strip().lower()
    return kind in JSON_TYPES and _header(headers, b"content-encoding") is None


async def _packed(body: bytes) -> bytes:
    """The body gzipped: a large one in a worker thread, not on the event loop (80 KB of a
    record's hashes take ~9 ms on a loaded laptop)."""
    if len(body) < IN_A_THREAD:
        return gzip.compress(body, compresslevel=LEVEL, mtime=0)
    return await anyio.to_thread.run_sync(partial(gzip.compress, body, LEVEL, mtime=0))


async def _encoded(start: dict, body: bytes) -> tuple[dict, bytes]:
    """The start message and body gzipped (Vary said whether or not it was worth it)."""
    keep = [(k, v) for k, v in start.get("headers") or [] if k.lower() != b"vary"]
    vary = [(b"vary", b"Accept-Encoding")]
    if len(body) < SMALLEST:
        return {**start, "headers": keep + vary}, body
    packed = await _packed(body)
    headers = []
    for name, value in keep:
        if name.lower() == b"content-length":
            value = str(len(packed)).encode()
        elif name.lower() == b"etag" and value.endswith(b'"'):
            value = value[:-1] + b'-gz"'
        headers.append((name, value))
    return {**start, "headers": [*headers, *vary, (b"content-encoding", b"gzip")]}, packed


class JsonGzip:
    """ASGI middleware: JSON answers gzipped for clients that take gzip."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http" or not takes_gzip(_asked(scope)):
            await self.app(scope, receive, send)
            return
        held: dict | None = None
        chunks: list[bytes] = []

        async def sending(message) -> None:
            nonlocal held
            if message["type"] == "http.response.start" and _is_json(message):
                held = message  # sent with the whole body, once it is known
                return
            if held is None or message["type"] != "http.response.body":
                await send(message)
                return
            chunks.append(message.get("body", b""))
            if message.get("more_body"):
                return
            start, body = await _encoded(held, b"".join(chunks))
            await send(start)
            await send({"type": "http.response.body", "body": body})

        await self.app(scope, receive, sending)


def _asked(scope) -> str:
    """The request's Accept-Encoding ("" when it has none)."""
    value = _header(scope.get("headers") or [], b"accept-encoding")
    return value.decode("latin-1") if value else ""
