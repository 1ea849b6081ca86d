"""Reading files from pwa/ and answering them with the right type, ETag and Cache-Control."""

from __future__ import annotations

import hashlib
from pathlib import Path

from litestar import Request, Response
from litestar.exceptions import NotFoundException

from tableside.settings import PWA_DIR

DEFAULT_PWA_DIR = PWA_DIR  # overridable per app (create_app's pwa_dir)

# Only these may be served: a stray script or note in pwa/ stays private. ES modules need a
# JavaScript MIME type, and the manifest its own, which Python's mimetypes does not know.
# (Litestar adds "; charset=utf-8" to text/* itself.)
CONTENT_TYPES = {
    ".html": "text/html",
    ".js": "text/javascript",
    ".css": "text/css",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".png": "image/png",
    ".svg": "image/svg+xml",
}

# No file name carries a content hash, so the browser must always revalidate; the service
# worker's versioned cache is what makes the app fast and offline, not the HTTP cache.
REVALIDATE = "no-cache"


def read(root: Path, relative: str) -> bytes:
    """The bytes of a servable file under root; 404 for anything else (no path escapes)."""
    path = (root / relative).resolve()
    if root.resolve() not in path.parents or path.suffix not in CONTENT_TYPES:
        raise NotFoundException()
    try:
        return path.read_bytes()
    except (FileNotFoundError, IsADirectoryError):
        raise NotFoundException() from None


def etag(body: bytes) -> str:
    """A strong validator from the content itself."""
    return '"' + hashlib.sha256(body).hexdigest()[:20] + '"'


def answer(request: Request, body: bytes, suffix: str) -> Response[bytes]:
    """200 with the body, or 304 when the browser already holds these bytes."""
    tag = etag(body)
    headers = {"ETag": tag, "Cache-Control": REVALIDATE, "X-Content-Type-Options": "nosniff"}
    if tag in request.headers.get("if-none-match", ""):
        return Response(b"", status_code=304, headers=headers)
    return Response(body, media_type=CONTENT_TYPES[suffix], headers=headers)
